import { composeFile, type ConfigFile, installScript, nginxSite, systemdUnit } from './config-files'

export type Platform = 'linux' | 'darwin' | 'docker' | 'freebsd' | 'windows'
export type Architecture = 'amd64' | 'arm64'

/** One way to install a release: the command that does it, and the file it needs. */
export interface InstallAsset {
  /** Key of the asset's name and description in the install texts. */
  id: 'source' | 'compose' | 'systemd' | 'nginx'
  platforms: readonly Platform[]
  architectures: readonly Architecture[]
  /** Shown by Install, to copy into a shell. */
  command: string
  /** Saved by Download. */
  file: ConfigFile
}

export interface Release {
  version: string
  /** Release day, `YYYY-MM-DD`. */
  date: string
  /** The Node.js version the release needs. */
  node: string
  assets: readonly InstallAsset[]
}

function assetsOf(version: string): InstallAsset[] {
  return [
    {
      id: 'source',
      platforms: ['linux', 'darwin'],
      architectures: ['amd64', 'arm64'],
      command: 'npm ci && npm run build && bin/flagman server',
      file: installScript,
    },
    {
      id: 'compose',
      platforms: ['docker'],
      architectures: ['amd64', 'arm64'],
      command: 'docker compose up -d --build',
      file: composeFile(version),
    },
    {
      id: 'systemd',
      platforms: ['linux'],
      architectures: ['amd64', 'arm64'],
      command: [
        'sudo useradd --system --home-dir /var/lib/flagman --create-home flagman',
        'sudo install -D -m 0600 -o flagman flagman.env /etc/flagman/flagman.env',
        'sudo install -m 0644 flagman.service /etc/systemd/system/flagman.service',
        'sudo systemctl daemon-reload && sudo systemctl enable --now flagman',
      ].join('\n'),
      file: systemdUnit,
    },
    {
      id: 'nginx',
      platforms: ['linux', 'freebsd'],
      architectures: ['amd64', 'arm64'],
      command: [
        'sudo install -m 0644 flagman.conf /etc/nginx/conf.d/flagman.conf',
        'sudo nginx -t && sudo systemctl reload nginx',
      ].join('\n'),
      file: nginxSite,
    },
  ]
}

/** Flagman's releases, newest first. */
export const RELEASES: readonly Release[] = [
  { version: '0.1.0', date: '2026-11-24', node: '20.19', assets: assetsOf('0.1.0') },
]
