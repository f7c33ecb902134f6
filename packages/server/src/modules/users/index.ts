export { usersRoutes } from './users.routes.js'
export {
  createUser,
  deleteUser,
  setPassword,
  updateUser,
  type PasswordRules,
} from './users.service.js'
export { checkPasswordLength, passwordTooShortMessage } from './password-rules.js'
export {
  INITIAL_PASSWORD_FILE,
  holdsInitialPassword,
  removeInitialPasswordFile,
  removeStaleInitialPassword,
} from './initial-password.js'
export { findUserByLogin, listUserRows, toUser, type UserRow } from './users.repository.js'
