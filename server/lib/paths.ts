import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, found from this file whether it runs from source or from dist/. */
function findRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above the server');
    dir = parent;
  }
  return dir;
}

export const ROOT_DIR = findRoot();
export const MIGRATIONS_DIR = path.join(ROOT_DIR, 'server/db/migrations');
export const WEB_DIST_DIR = path.join(ROOT_DIR, 'dist/web');
