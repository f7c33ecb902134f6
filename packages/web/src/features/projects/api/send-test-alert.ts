import { alertRoutes } from '@flagman/contract'
import { useMutation } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'

/** Sends a test alert of the project to every channel the server has configured. */
export function useSendTestAlert(projectId: number) {
  return useMutation({
    mutationFn: () => api.call(alertRoutes.test, { params: { project_id: projectId } }),
  })
}
