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
        codeSplitting: {
          // Groups take modules in this order. A page a person opens should wait on few files:
          // each further round of requests costs a round trip on a phone's network.
          groups: [
            // Everything the first page needs, in the one file index.html names.
            { name: 'start', tags: ['$initial'] },
            // The other pages' icons and TanStack Query: one file each, not dozens.
            { name: 'icons', test: /[\\/]node_modules[\\/]lucide-react[\\/]/ },
            { name: 'query', test: /[\\/]node_modules[\\/]@tanstack[\\/]/ },
            // Radix's dialogs and tooltips with what they stand on; its menus, tabs and toasts
            // (a few pages, or on first use) stay with the parts that use them.
            {
              name: 'radix',
              test: (id) =>
                /[\\/]node_modules[\\/](@radix-ui|@floating-ui|react-remove-scroll|react-remove-scroll-bar|react-style-singleton|use-callback-ref|use-sidecar|aria-hidden|get-nonce|detect-node-es|tslib)[\\/]/.test(
                  id,
                ) &&
                !/@radix-ui[\\/]react-(toast|tabs|dropdown-menu|menu|roving-focus|collection|direction)[\\/]/.test(
                  id,
                ),
            },
            // Small shared parts of our own that two or more pages use.
            {
              name: 'common',
              test: (id) =>
                /[\\/](web[\\/](components|lib)|shared[\\/](rules|constants|listing-options|vm-options|gpu-models))[\\/.]/.test(
                  id,
                ) && !/api-document|openapi-view/.test(id),
              minShareCount: 2,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    // ws: the web console's WebSocket goes through the proxy too.
    proxy: { '/api': { target: 'http://localhost:5000', ws: true } },
  },
});
