// Bundles agent/main.ts and its dependencies (zod) into one file, dist/agent/rentgpu-agent.mjs,
// that a provider's host runs with Node 20 alone: `node rentgpu-agent.mjs`.
import { build } from 'esbuild';

await build({
  entryPoints: ['agent/main.ts'],
  outfile: 'dist/agent/rentgpu-agent.mjs',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: false,
  minify: false,
  logLevel: 'warning',
});
