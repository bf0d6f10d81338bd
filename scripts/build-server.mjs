// Bundles server/main.ts and server/migrate.ts (our code only; packages stay external) into
// dist/server/main.js and dist/server/migrate.js.
import { build } from 'esbuild';

await build({
  entryPoints: ['server/main.ts', 'server/migrate.ts'],
  outdir: 'dist/server',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
