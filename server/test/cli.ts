import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The repository's root folder. */
export const REPO_ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The rentgpu CLI's sources (cli/rentgpu.ts) bundled by esbuild into a new temporary folder, so
 * a test runs it as one node process (a tsx start costs seconds a call); returns the bundle.
 */
export async function bundleCli(): Promise<string> {
  const bundle = path.join(mkdtempSync(path.join(tmpdir(), 'rentgpu-cli-')), 'rentgpu.mjs');
  await build({
    entryPoints: [path.join(REPO_ROOT, 'cli', 'rentgpu.ts')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    // commander is CommonJS: its require() of Node's modules needs a require in the bundle.
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  return bundle;
}
