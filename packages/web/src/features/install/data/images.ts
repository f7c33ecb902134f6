/** The container image built from the Dockerfile at the root of the Flagman repository. */
export interface ImageSetting {
  /** Environment variable, volume or port. */
  name: string
  value: string
  /** Key of its description in the install texts. */
  description: 'host' | 'port' | 'dataDir' | 'volume' | 'expose' | 'healthcheck'
}

export const IMAGE_NAME = 'flagman'

export function imageCommands(version: string): { build: string; run: string } {
  return {
    build: `docker build -t ${IMAGE_NAME}:${version} .`,
    run: [
      `docker run -d --name flagman -p 127.0.0.1:3000:3000 \\`,
      `  -v flagman-data:/var/lib/flagman \\`,
      `  -e FLAGMAN_WEB_HOST=http://localhost:3000 \\`,
      `  ${IMAGE_NAME}:${version}`,
    ].join('\n'),
  }
}

/** What the image sets, as in its Dockerfile. */
export const IMAGE_SETTINGS: readonly ImageSetting[] = [
  { name: 'FLAGMAN_HOST', value: '0.0.0.0', description: 'host' },
  { name: 'FLAGMAN_PORT', value: '3000', description: 'port' },
  { name: 'FLAGMAN_DATA_DIR', value: '/var/lib/flagman', description: 'dataDir' },
  { name: 'VOLUME', value: '/var/lib/flagman', description: 'volume' },
  { name: 'EXPOSE', value: '3000', description: 'expose' },
  { name: 'HEALTHCHECK', value: 'GET /api/ping', description: 'healthcheck' },
]
