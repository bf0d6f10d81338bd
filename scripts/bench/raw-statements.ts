/**
 * The raw-SQL anchor of every marketplace shape (`BENCH_RAW_SHAPES=1 npm run bench`, part
 * `shapes`, PostgreSQL only): a bare node:http server that, for every request, sends the very
 * statements the app sent for one request of that shape (recorded by listing-shapes.ts: their
 * text, their values and, where the app named one, its name, so that it is planned once per
 * connection as the app's is), one after the other through a `pg` pool of the app's size, and
 * answers the page's bytes as the app gave them. No Fastify, no Drizzle, no hooks, no filling
 * of slots: what the shape's round trips alone cost on this machine, and so the rate and the p99
 * no server that sends them can beat here (raw-page.ts is the same for the first page, built
 * from its statement rather than recorded).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

export interface RecordedStatement {
  text: string;
  values: unknown[];
  name?: string;
}

export async function rawStatementsServer(
  url: string,
  poolSize: number,
  statements: readonly RecordedStatement[],
  body: Buffer,
  contentType: string,
): Promise<{ url: string; close: () => Promise<void> }> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  const send = async () => {
    for (const { text, values, name } of statements) {
      await pool.query({ text, values, rowMode: 'array', ...(name ? { name } : {}) });
    }
  };
  const server = http.createServer((_request, response) => {
    send().then(
      () => {
        response.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
        response.end(body);
      },
      (error: unknown) => {
        response.writeHead(500).end(String(error));
      },
    );
  });
  return listenWithPool(server, pool);
}

/** A raw anchor's server listening on 127.0.0.1 (raw-page.ts too); closing it ends its pool. */
export async function listenWithPool(
  server: http.Server,
  pool: pg.Pool,
): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.end();
    },
  };
}
