import type { FastifyInstance } from 'fastify';
import { createApp } from '../../app';
import { openDatabase } from '../../db/client';
import { parseEnv } from '../../env';

/** The document as committed in docs/openapi.json: stable key order, two-space indent. */
export function documentText(app: FastifyInstance): string {
  return `${JSON.stringify(app.swagger(), null, 2)}\n`;
}

/**
 * Builds the app (an empty in-memory database: nothing is queried) and returns its public
 * API's OpenAPI document as text (`npm run openapi` writes it to docs/openapi.json).
 */
export async function generateOpenApiDocument(): Promise<string> {
  const database = await openDatabase({ kind: 'pglite' });
  const app = await createApp({
    env: parseEnv({ NODE_ENV: 'test' }),
    database,
    logger: false,
    webDir: null,
  });
  try {
    await app.ready();
    return documentText(app);
  } finally {
    await app.close();
    await database.close();
  }
}
