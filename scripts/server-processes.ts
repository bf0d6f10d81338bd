/**
 * Real server processes for the multi-process system test (system/two-processes.e2e.test.ts)
 * and the bench's one-versus-two-processes figure (scripts/bench/run.ts): server/main.ts
 * bundled as `npm start` runs it, started as child processes on a scratch PostgreSQL database.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import pg from 'pg';
import { freePort } from './free-port.mjs';
import { SERVER_NODE_FLAGS, withServerEnv } from './server-node-flags.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
/** Inside the repository, so that the bundle's packages resolve from node_modules. */
const BUNDLE = path.join(ROOT, 'dist/test/server-main.mjs');

/**
 * Bundles server/main.ts from the sources (well under a second; no web build needed), as
 * scripts/build-server.mjs does for dist/server/main.js. Returns the bundle's path.
 */
export async function bundleServer(): Promise<string> {
  mkdirSync(path.dirname(BUNDLE), { recursive: true });
  await build({
    entryPoints: [path.join(ROOT, 'server/main.ts')],
    outfile: BUNDLE,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  return BUNDLE;
}

export interface ServerProcess {
  name: string;
  child: ChildProcess;
  /** http://127.0.0.1:<port> once it listens. */
  url: string;
  port: number;
  /** Everything it printed so far. */
  output(): string;
  /** Resolves when it exits (code, or the signal that ended it). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Why a server process did not come up: it exited first (with its output), or took too long. */
export class ServerStartError extends Error {
  constructor(
    readonly server: string,
    readonly output: string,
    readonly exit: { code: number | null; signal: NodeJS.Signals | null } | null,
  ) {
    const errors = output.match(/^.*\b(?:error|Error)\b.*$/gm)?.slice(0, 3) ?? [];
    super(
      `server ${server} ${exit ? `exited (${exit.signal ?? `code ${exit.code}`})` : 'did not start in time'} before listening: ${errors.join(' | ').slice(0, 1000)}\n… ${output.slice(-1500)}`,
    );
  }
}

const READY = 'RentGPU is running at ';

/**
 * Starts one server process with `env` (and nothing else from this process's environment but
 * PATH and HOME), listening on a port of 127.0.0.1 free now; resolves once it says it runs.
 */
export async function startServer(
  name: string,
  bundle: string,
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, bundle], {
    cwd: ROOT,
    env: withServerEnv({
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      HOST: '127.0.0.1',
      ...env,
      PORT: String(port),
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise<ServerProcess>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new ServerStartError(name, text, null));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (!text.includes(READY)) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stdout?.on('data', (more: Buffer) => {
        text += more.toString('utf8');
      });
      resolve({
        name,
        child,
        url: `http://127.0.0.1:${port}`,
        port,
        output: () => text,
        exited,
      });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    exited.then((exit) => {
      clearTimeout(timer);
      reject(new ServerStartError(name, text, exit));
    });
  });
}

/** Ends a server process at once (SIGKILL) and waits for it to be gone. */
export async function killServer(server: ServerProcess | null | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGKILL');
  await server.exited;
}

/**
 * A new, empty database beside `adminUrl`'s (named `name`), and how to drop it (with force:
 * connections still open are ended).
 */
export async function scratchDatabase(
  adminUrl: string,
  name: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Whether PostgreSQL answers at `url` (within about two seconds). */
export async function postgresAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}
