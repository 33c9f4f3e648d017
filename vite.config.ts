import { defineConfig } from 'vite';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { cspMetaContent } from './src/app/csp.ts';

/**
 * The Content-Security-Policy as the first element of the built index.html, so it governs every
 * script after it. Only in the build: the dev server's React refresh preamble is an inline script.
 */
function contentSecurityPolicy(): Plugin {
  return {
    name: 'workbench-csp',
    apply: 'build',
    transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: cspMetaContent() }, injectTo: 'head-prepend' }],
  };
}

export default defineConfig({
  plugins: [react(), contentSecurityPolicy()],
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 4096,
  },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
  server: { host: '127.0.0.1' },
});
