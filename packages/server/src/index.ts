export { loadConfig, type Config } from './config.js'
export { buildApp } from './build-app.js'
export { startServer, INITIAL_PASSWORD_FILE, type RunningServer } from './start.js'
export { VERSION } from './version.js'
export {
  createUser,
  deleteUser,
  setPassword,
  updateUser,
  findUserByLogin,
  listUserRows,
  holdsInitialPassword,
  removeInitialPasswordFile,
  type PasswordRules,
} from './modules/users/index.js'
