export const authKeys = {
  currentUser: ['auth', 'current-user'] as const,
  loginMetadata: ['auth', 'login-metadata'] as const,
}
