/** A JSON Schema (draft 2020-12) or OpenAPI object: plain JSON. */
export type JsonObject = { [key: string]: unknown }

export interface OpenApiParameter {
  name: string
  in: 'path' | 'query' | 'header'
  required: boolean
  description?: string
  schema: JsonObject
}

export interface OpenApiMediaType {
  schema: JsonObject
}

export interface OpenApiResponse {
  description: string
  headers?: Record<string, { description: string; schema: JsonObject }>
  content?: Record<string, OpenApiMediaType>
}

export interface OpenApiRequestBody {
  required: boolean
  description?: string
  content: Record<string, OpenApiMediaType>
}

export interface OpenApiOperation {
  operationId: string
  summary: string
  description: string
  tags: string[]
  parameters?: OpenApiParameter[]
  requestBody?: OpenApiRequestBody
  responses: Record<string, OpenApiResponse>
  security: Record<string, string[]>[]
  /** The route's access rule, as the contract states it (see Access). */
  'x-access': JsonObject
}

/** Methods OpenAPI knows; LOCK and UNLOCK become the extensions `x-lock` and `x-unlock`. */
export const OPENAPI_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const

export type PathItem = { [method: string]: OpenApiOperation }

export interface OpenApiDocument {
  openapi: '3.1.0'
  info: { title: string; version: string; description: string }
  servers: { url: string }[]
  tags: { name: string }[]
  paths: Record<string, PathItem>
  components: {
    schemas: Record<string, JsonObject>
    securitySchemes: Record<string, JsonObject>
  }
}
