/**
 * The raw-SQL anchor for the marketplace's first page with the read cache off (`npm run
 * bench`, PostgreSQL only): a bare node:http server that, for every request, sends the app's
 * own first-page statement (server/modules/listings/page-query.ts, named, so planned once per
 * connection as the app's is) through a `pg` pool of the same size, cuts the extra listing as
 * the app does (pageOfRow) and answers the JSON array. No Fastify, no Drizzle, no hooks, no
 * validation: what one database round trip per request costs on this machine, the ceiling
 * the app's uncached page is a share of (the bare server answering fixed bytes has no
 * database to wait for).
 */
import http from 'node:http';
import pg from 'pg';
import { type PageSqlRow, pageOfRow } from '../../server/modules/listings/page-query';
import { pageQueryOf } from '../../server/modules/listings/page-statements';
import { listenWithPool } from './raw-statements';

const LIMIT = 50;

export async function rawPageServer(
  url: string,
  poolSize: number,
): Promise<{ url: string; close: () => Promise<void> }> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // The app's first page: the same statement, named as the app names it.
  const { statement, name, values } = pageQueryOf({
    limit: LIMIT,
    view: 'market',
    now: new Date(),
  });
  const server = http.createServer((_request, response) => {
    pool
      .query<PageSqlRow>({ name, text: statement.text, values, rowMode: 'array' })
      .then((result) => {
        const row = result.rows[0];
        if (!row) throw new Error('the page statement answered no row');
        const body = pageOfRow(row, LIMIT).json;
        response.writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(body),
        });
        response.end(body);
      })
      .catch((error: unknown) => {
        response.writeHead(500).end(String(error));
      });
  });
  return listenWithPool(server, pool);
}
