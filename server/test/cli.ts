import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The repository's root folder. */
export const REPO_ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The rentgpu CLI's sources (cli/rentgpu.ts) bundled by esbuild into a new temporary folder, so
 * a test runs it as one node process (a tsx start costs seconds a call); returns the bundle.
 * `removeCliBundle` takes the folder away again.
 */
export async function bundleCli(): Promise<string> {
  const bundle = path.join(mkdtempSync(path.join(tmpdir(), BUNDLE_FOLDER)), 'rentgpu.mjs');
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

const BUNDLE_FOLDER = 'rentgpu-cli-bundle-';

/** A bundle's temporary folder removed; anything that is not one of bundleCli's is left alone. */
export function removeCliBundle(bundle: string | undefined): void {
  const folder = bundle ? path.dirname(bundle) : '';
  if (path.dirname(folder) === tmpdir() && path.basename(folder).startsWith(BUNDLE_FOLDER)) {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * Temporary folders of a test file's CLI runs (each run's HOME, a stand-in program's folder):
 * `make` one, `removeAll` after the file's tests.
 */
export function cliTempFolders(): { make: (prefix?: string) => string; removeAll: () => void } {
  const made: string[] = [];
  return {
    make(prefix = 'rentgpu-cli-') {
      const folder = mkdtempSync(path.join(tmpdir(), prefix));
      made.push(folder);
      return folder;
    },
    removeAll() {
      for (const folder of made.splice(0)) rmSync(folder, { recursive: true, force: true });
    },
  };
}
