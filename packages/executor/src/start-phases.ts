import { performance } from 'node:perf_hooks'

/** Where a job's start went before its app's first process ran, in milliseconds. */
export interface JobStartPhases {
  /** Making the job's private folder and writing its files (inventory, keys, variables). */
  writingFiles: number
  /** Cloning or updating the repository, checking out the commit, reading its head. */
  preparingRepository: number
  /** Starting the app's first process until the system reported it running. */
  spawning: number
}

/**
 * Adds up the time a job spends in each start phase and reports the sum once, when the
 * app's first process runs; later processes (plan, apply…) are part of the run, not the start.
 */
export class StartPhases {
  private repository = 0
  private filesDuringRepository = 0
  private reported = false

  constructor(
    /** Milliseconds the job's private folder has spent making itself and writing files. */
    private readonly filesMs: () => number,
    private readonly report: (phases: JobStartPhases) => void,
  ) {}

  /** Runs repository work; files it writes (keys, askpass) count as the repository's. */
  async repositoryWork<T>(work: () => Promise<T>): Promise<T> {
    const started = performance.now()
    const filesBefore = this.filesMs()
    try {
      return await work()
    } finally {
      this.repository += performance.now() - started
      this.filesDuringRepository += this.filesMs() - filesBefore
    }
  }

  /** The callback for the next process's spawn: reports the phases if it is the first one. */
  spawnWatcher(): (() => void) | undefined {
    if (this.reported) return undefined
    const started = performance.now()
    return () => {
      if (this.reported) return
      this.reported = true
      this.report({
        writingFiles: Math.max(0, this.filesMs() - this.filesDuringRepository),
        preparingRepository: this.repository,
        spawning: performance.now() - started,
      })
    }
  }
}
