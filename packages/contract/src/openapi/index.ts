export { buildOpenApiDocument, type OpenApiInfo } from './document.js'
export { openApiPath } from './operation.js'
export type { OpenApiDocument, OpenApiOperation, PathItem } from './types.js'
