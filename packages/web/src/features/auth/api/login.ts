import { login, type LoginBody } from '@flagman/contract'
import { useMutation } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'

export function useLogin() {
  return useMutation({
    mutationFn: (body: LoginBody) => api.call(login, { body }),
  })
}
