/** Port of the server the browser tests start; override with FLAGMAN_E2E_PORT. */
export const E2E_PORT = Number(process.env.FLAGMAN_E2E_PORT ?? 3917)

export const ADMIN = {
  login: 'admin',
  password: 'e2e-admin-password',
  email: 'admin@example.test',
  name: 'Ada Admin',
}

/** Screenshots of the main screens are kept here as test artifacts. */
export const ARTIFACTS_DIR = new URL('../artifacts/', import.meta.url)
