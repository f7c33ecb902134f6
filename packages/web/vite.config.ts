import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const apiTarget = process.env.FLAGMAN_API_URL ?? 'http://127.0.0.1:3000'

const source = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url))
const SIGN_IN = [source('app/routes/auth/login.tsx')]
/** What a signed-in project page renders first: the layouts and the default project page. */
const SIGNED_IN = [
  source('app/layouts/app-root.tsx'),
  source('app/layouts/shell-layout.tsx'),
  source('app/layouts/project-layout.tsx'),
  source('app/routes/project/landing.tsx'),
  source('app/routes/project/history.tsx'),
]

type ModuleGraph = { getModuleInfo(id: string): { importedIds: readonly string[] } | null }

/** The modules `roots` import, directly or not, without dynamic imports. */
function staticImports(graph: ModuleGraph, roots: readonly string[]): Set<string> {
  const found = new Set<string>()
  const queue = [...roots]
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    if (found.has(id)) continue
    found.add(id)
    queue.push(...(graph.getModuleInfo(id)?.importedIds ?? []))
  }
  return found
}

/**
 * Chunk of a module of the sign-in page or the first signed-in page (modules of the entry are
 * taken by the group before): one for what both load, one for the rest of the signed-in page.
 * Left to itself the bundler splits these into some sixty small chunks, one per set of
 * importing routes, which the browser then requests six at a time; a few larger chunks load
 * sooner.
 */
function firstPageChunks() {
  let chunkOf: Map<string, string> | null = null
  return (id: string, graph: ModuleGraph): string | null => {
    if (!chunkOf) {
      const signIn = staticImports(graph, SIGN_IN)
      chunkOf = new Map()
      for (const module of staticImports(graph, SIGNED_IN)) {
        chunkOf.set(module, signIn.has(module) ? 'common' : 'console')
      }
    }
    return chunkOf.get(id) ?? null
  }
}

export default defineConfig({
  plugins: [react()],
  // The server puts a fresh nonce in place of this name in each answer with the page: on the
  // page's own script and link tags, and on `<meta property="csp-nonce">`, from which the
  // console marks its style elements.
  html: { cspNonce: '__FLAGMAN_CSP_NONCE__' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // The entry holds React, the router, MUI's core, the API contract and the app shell in one
    // file (one request instead of seven), larger than the default warning size.
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Each group already names every module it needs, its static imports included; a
          // module of two groups goes to the one of higher priority.
          includeDependenciesRecursively: false,
          groups: [
            // Everything the entry imports in one chunk, instead of the entry and six more.
            { name: 'start', tags: ['$initial'], priority: 3 },
            {
              priority: 2,
              // All texts of one language in one chunk, loaded only when the language is shown.
              name: (id) => /[\\/]src[\\/]locales[\\/]([^\\/]+)[\\/]/.exec(id)?.[1] ?? null,
              debugName: 'locales',
            },
            { name: firstPageChunks(), debugName: 'first page', priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true, ws: true },
    },
  },
})
