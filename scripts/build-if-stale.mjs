// Builds the web app, the server bundle and the agent bundle unless dist/ already matches the sources.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const SOURCES = [
  'web',
  'shared',
  'server',
  'agent',
  // The web bundles the OpenAPI document for the API Reference.
  'docs/openapi.json',
  'vite.config.ts',
  'scripts/precompress.mjs',
  'package-lock.json',
  'scripts/build-server.mjs',
  'scripts/build-agent.mjs',
];
export const STAMP = 'dist/.build-stamp';

function walk(entry, out) {
  if (!existsSync(entry)) return;
  const stat = statSync(entry);
  if (stat.isDirectory()) {
    for (const name of readdirSync(entry).sort()) {
      if (name === 'node_modules' || name === 'dist') continue;
      walk(path.join(entry, name), out);
    }
  } else {
    out.push(`${entry}:${stat.size}:${stat.mtimeMs}`);
  }
}

export function sourceFingerprint() {
  const files = [];
  for (const source of SOURCES) walk(source, files);
  return createHash('sha256').update(files.join('\n')).digest('hex');
}

export function buildIfStale({ log = console.log } = {}) {
  const fingerprint = sourceFingerprint();
  const fresh =
    existsSync(STAMP) &&
    existsSync('dist/web/index.html') &&
    existsSync('dist/server/main.js') &&
    existsSync('dist/server/migrate.js') &&
    existsSync('dist/agent/rentgpu-agent.mjs') &&
    readFileSync(STAMP, 'utf8') === fingerprint;
  if (fresh) return false;
  log('Building the web app, the server and the agent (first start or changed sources)...');
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], {
    stdio: 'inherit',
  });
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
  // The agent hosts download (GET /api/providers/agent/download-script).
  execFileSync(process.execPath, ['scripts/build-agent.mjs'], { stdio: 'inherit' });
  writeFileSync(STAMP, fingerprint);
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) buildIfStale();
