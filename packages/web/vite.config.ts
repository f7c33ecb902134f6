import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const apiTarget = process.env.FLAGMAN_API_URL ?? 'http://127.0.0.1:3000'

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true, ws: true },
    },
  },
})
