export { usersRoutes } from './users.routes.js'
export { createUser, deleteUser, setPassword } from './users.service.js'
export { findUserByLogin, listUserRows, toUser, type UserRow } from './users.repository.js'
