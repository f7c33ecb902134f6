/*
 * A strict reader of the Prometheus text exposition format (version 0.0.4), enough for
 * tests to check that every line of an answer is well formed and to read values back.
 */

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped'

export interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

export interface Family {
  name: string
  help: string | null
  type: MetricType | null
  samples: Sample[]
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped'])
/** Suffixes of the samples that belong to a histogram or summary family. */
const SUFFIXES: Record<string, readonly string[]> = {
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['_sum', '_count'],
}

function fail(lineNo: number, line: string, why: string): never {
  throw new Error(`line ${lineNo}: ${why}: ${JSON.stringify(line)}`)
}

/**
 * A sample value. Prometheus reads values as Go's ParseFloat does, which takes NaN and Inf in
 * any case (prom-client writes `Nan` for an empty event-loop histogram).
 */
function parseValue(text: string): number | null {
  const special = text.toLowerCase()
  if (special === '+inf' || special === 'inf') return Infinity
  if (special === '-inf') return -Infinity
  if (special === 'nan') return NaN
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) return null
  return Number(text)
}

/** The labels between braces, from `at` (just after `{`); answers them and the index after `}`. */
function parseLabels(
  line: string,
  at: number,
  lineNo: number,
): [labels: Record<string, string>, end: number] {
  const labels: Record<string, string> = {}
  let i = at
  for (;;) {
    if (line[i] === '}') return [labels, i + 1]
    const eq = line.indexOf('=', i)
    if (eq < 0) fail(lineNo, line, 'label without a value')
    const name = line.slice(i, eq)
    if (!LABEL_NAME.test(name)) fail(lineNo, line, `bad label name ${name}`)
    if (name in labels) fail(lineNo, line, `label ${name} twice`)
    if (line[eq + 1] !== '"') fail(lineNo, line, 'label value not quoted')
    let value = ''
    let j = eq + 2
    for (;;) {
      const c = line[j]
      if (c === undefined) fail(lineNo, line, 'unterminated label value')
      if (c === '"') break
      if (c === '\\') {
        const next = line[j + 1]
        if (next === 'n') value += '\n'
        else if (next === '\\' || next === '"') value += next
        else fail(lineNo, line, 'bad escape in label value')
        j += 2
        continue
      }
      value += c
      j += 1
    }
    labels[name] = value
    i = j + 1
    if (line[i] === ',') i += 1
    else if (line[i] !== '}') fail(lineNo, line, 'expected , or } after a label')
  }
}

/** The family a sample name belongs to, among those declared by TYPE. */
function familyOf(name: string, families: Map<string, Family>): Family | undefined {
  const exact = families.get(name)
  if (exact) return exact
  for (const family of families.values()) {
    const suffixes = SUFFIXES[family.type ?? ''] ?? []
    if (suffixes.some((suffix) => name === family.name + suffix)) return family
  }
  return undefined
}

/**
 * Reads a whole answer; throws on the first line that is not well formed, on a sample of a
 * family without HELP and TYPE, and on a HELP or TYPE given twice or after its samples.
 */
export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>()
  const declare = (name: string): Family => {
    let family = families.get(name)
    if (!family) families.set(name, (family = { name, help: null, type: null, samples: [] }))
    return family
  }
  const lines = text.split('\n')
  if (lines.at(-1) === '') lines.pop()
  lines.forEach((line, index) => {
    const lineNo = index + 1
    if (line.trim() === '') return
    if (line.startsWith('#')) {
      const match = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(line)
      if (!match) return // a plain comment
      const [, keyword, name, rest = ''] = match as unknown as [string, string, string, string?]
      if (!NAME.test(name)) fail(lineNo, line, 'bad metric name')
      const family = declare(name)
      if (family.samples.length > 0) fail(lineNo, line, `${keyword} after samples`)
      if (keyword === 'HELP') {
        if (family.help !== null) fail(lineNo, line, 'HELP twice')
        family.help = rest.replace(/\\(n|\\)/g, (_, c: string) => (c === 'n' ? '\n' : '\\'))
      } else {
        if (family.type !== null) fail(lineNo, line, 'TYPE twice')
        if (!TYPES.has(rest)) fail(lineNo, line, 'unknown type')
        family.type = rest as MetricType
      }
      return
    }
    const nameMatch = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)
    if (!nameMatch) fail(lineNo, line, 'not a sample')
    const name = nameMatch[0]
    let at = name.length
    let labels: Record<string, string> = {}
    if (line[at] === '{') [labels, at] = parseLabels(line, at + 1, lineNo)
    if (line[at] !== ' ') fail(lineNo, line, 'expected a space before the value')
    const parts = line.slice(at + 1).split(' ')
    if (parts.length < 1 || parts.length > 2)
      fail(lineNo, line, 'expected a value and a timestamp at most')
    const value = parseValue(parts[0] ?? '')
    if (value === null) fail(lineNo, line, 'bad value')
    if (parts[1] !== undefined && !/^-?\d+$/.test(parts[1])) fail(lineNo, line, 'bad timestamp')
    const family = familyOf(name, families)
    if (!family) fail(lineNo, line, 'sample of an undeclared family')
    if (family.help === null || family.type === null)
      fail(lineNo, line, 'family lacks HELP or TYPE')
    family.samples.push({ name, labels, value })
  })
  for (const family of families.values()) {
    if (family.help === null || family.type === null) {
      throw new Error(`family ${family.name} lacks HELP or TYPE`)
    }
  }
  return families
}

/** The value of the one sample named `name` whose labels include `labels`; undefined if none. */
export function sampleValue(
  families: Map<string, Family>,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const family of families.values()) {
    for (const sample of family.samples) {
      if (sample.name !== name) continue
      if (Object.entries(labels).every(([k, v]) => sample.labels[k] === v)) return sample.value
    }
  }
  return undefined
}
