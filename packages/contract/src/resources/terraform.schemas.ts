import { z } from 'zod'
import { InputId } from '../common/fields.js'

/** Text the console shows where the Terraform/OpenTofu HTTP backend is not available. */
export const TERRAFORM_BACKEND_UNAVAILABLE =
  'Terraform/OpenTofu HTTP backend available only in PRO version.'

/** An HTTP-backend address of a workspace; `url` is `<web_host>/api/terraform/<alias>`. */
export const TerraformAlias = z.object({
  id: z.number().int(),
  url: z.string(),
  auth_key_id: z.number().int().nullable(),
})
export type TerraformAlias = z.infer<typeof TerraformAlias>

/** Body of creating or changing an alias: the login-with-password key guarding it. */
export const SaveTerraformAliasBody = z.object({ auth_key_id: InputId('auth_key_id') })
export type SaveTerraformAliasBody = z.infer<typeof SaveTerraformAliasBody>

/** A state stored through the HTTP backend; lists leave out the state text. */
export const TerraformState = z.object({
  id: z.number().int(),
  created: z.string(),
  task_id: z.number().int().nullable(),
  project_id: z.number().int(),
  inventory_id: z.number().int(),
  state: z.string().optional(),
})
export type TerraformState = z.infer<typeof TerraformState>
