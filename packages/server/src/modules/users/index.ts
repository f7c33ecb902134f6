export { usersRoutes } from './users.routes.js'
export { createUser, deleteUser, setPassword, updateUser } from './users.service.js'
export { findUserByLogin, listUserRows, toUser, type UserRow } from './users.repository.js'
