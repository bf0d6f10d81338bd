import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorResponses } from '../../../shared/contracts/errors';
import { imageCatalogue } from '../../../shared/contracts/images';
import { serviceUnavailable } from '../../lib/errors';
import { ROOT_DIR } from '../../lib/paths';

/** The installer, committed as a static file: nothing of a request is ever spliced into it. */
export const INSTALLER_PATH = path.join(ROOT_DIR, 'agent/install/install.sh');
/** The agent bundle `npm run build:agent` (and `npm start`) writes. */
export const AGENT_BUNDLE_PATH = path.join(ROOT_DIR, 'dist/agent/rentgpu-agent.mjs');
const AGENT_ENTRY = path.join(ROOT_DIR, 'agent/main.ts');

const INSTALLER_FILENAME = 'install.sh';
const AGENT_FILENAME = 'rentgpu-agent.mjs';

let installer: Promise<Buffer> | null = null;
let agentBundle: Promise<Buffer> | null = null;

/**
 * The agent as one ESM file for Node 20: dist/agent/rentgpu-agent.mjs when it was built,
 * otherwise bundled in memory with esbuild on first use (a checkout run with tsx or with dev
 * dependencies installed) and kept for the life of the process.
 */
export async function loadAgentBundle(bundlePath = AGENT_BUNDLE_PATH): Promise<Buffer> {
  if (existsSync(bundlePath)) return readFile(bundlePath);
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch {
    throw serviceUnavailable(
      'The agent is not built on this server. Run `npm run build:agent` and try again.',
    );
  }
  const result = await esbuild.build({
    entryPoints: [AGENT_ENTRY],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error('esbuild produced no agent bundle');
  return Buffer.from(output.contents);
}

function cached(
  get: () => Promise<Buffer> | null,
  set: (value: Promise<Buffer> | null) => void,
  load: () => Promise<Buffer>,
): Promise<Buffer> {
  const existing = get();
  if (existing) return existing;
  const loading = load().catch((error: unknown) => {
    set(null); // a failed load is tried again by the next request
    throw error;
  });
  set(loading);
  return loading;
}

const loadCachedAgent = () =>
  cached(
    () => agentBundle,
    (v) => {
      agentBundle = v;
    },
    () => loadAgentBundle(),
  );

/**
 * GET /api/providers/agent/download (the installer) and /download-script (the agent), for
 * anyone (a provider's setup guide links them): attachments, never rendered by a browser (nosniff). Beside
 * the agent, /download-script.sha256 publishes its SHA-256 in `sha256sum` format; the
 * installer refuses an agent that does not match it (ADR 014). /images is the server's image
 * catalogue (the same one heartbeat answers carry, ADR 015): the installer reads it to fetch
 * the default image before the agent's first start. Nothing in it is secret; it needs no
 * sign-in, as the installer has none.
 */
export function registerAgentDownloads(app: FastifyInstance): void {
  const attachment = {
    schema: {
      response: { 200: z.string().describe('The file, as an attachment'), ...errorResponses },
    },
  };
  app.get('/api/providers/agent/download', attachment, async (_request, reply) => {
    const body = await cached(
      () => installer,
      (v) => {
        installer = v;
      },
      () => readFile(INSTALLER_PATH),
    );
    return reply
      .header('content-type', 'text/x-shellscript; charset=utf-8')
      .header('content-disposition', `attachment; filename="${INSTALLER_FILENAME}"`)
      .header('x-content-type-options', 'nosniff')
      .send(body);
  });

  app.get('/api/providers/agent/download-script', attachment, async (_request, reply) => {
    const body = await loadCachedAgent();
    return reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('content-disposition', `attachment; filename="${AGENT_FILENAME}"`)
      .header('x-content-type-options', 'nosniff')
      .send(body);
  });

  app.get(
    '/api/providers/agent/download-script.sha256',
    {
      schema: {
        response: {
          200: z.string().describe('`<sha256 hex>  rentgpu-agent.mjs`, as sha256sum writes it'),
          ...errorResponses,
        },
      },
    },
    async (_request, reply) => {
      const digest = createHash('sha256')
        .update(await loadCachedAgent())
        .digest('hex');
      return reply
        .header('content-type', 'text/plain; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send(`${digest}  ${AGENT_FILENAME}\n`);
    },
  );

  app.get(
    '/api/providers/agent/images',
    {
      schema: {
        response: {
          200: imageCatalogue.describe(
            'The image catalogue hosts fetch from: name, source URL, SHA-256, size',
          ),
          ...errorResponses,
        },
      },
    },
    async (_request, reply) => {
      return reply
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send(app.deps.images.catalogue);
    },
  );
}
