import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './scripts/precompress.mjs';

export default defineConfig({
  root: 'web',
  plugins: [react(), tailwindcss(), precompress()],
  resolve: {
    alias: [
      {
        find: /^use-sync-external-store\/shim(\/index\.js)?$/,
        replacement: fileURLToPath(
          new URL('./web/lib/use-sync-external-store.ts', import.meta.url),
        ),
      },
    ],
  },
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: { groups: [{ name: 'start', tags: ['$initial'] }] },
      },
    },
  },
  server: {
    port: 5173,
    // ws: the web console's WebSocket goes through the proxy too.
    proxy: { '/api': { target: 'http://localhost:5000', ws: true } },
  },
});
