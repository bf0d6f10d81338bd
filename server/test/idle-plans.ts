import type { Logger } from 'drizzle-orm/logger';
import pg from 'pg';

/** A statement the app sent, as drizzle logged it. */
export interface Statement {
  sql: string;
  params: unknown[];
}

/** A drizzle logger that keeps what is sent while `recording` (openDatabase's `logger`). */
export class StatementLog implements Logger {
  recording = false;
  readonly statements: Statement[] = [];
  logQuery(query: string, params: unknown[]): void {
    if (this.recording) this.statements.push({ sql: query, params });
  }
  /** The statements `run` sends (transaction control left out). */
  async during(run: () => Promise<unknown>): Promise<Statement[]> {
    this.statements.length = 0;
    this.recording = true;
    try {
      await run();
    } finally {
      this.recording = false;
    }
    return this.statements.filter(
      (s) => !/^\s*(begin|commit|rollback|savepoint|release)\b/i.test(s.sql),
    );
  }
}

/** A plan node of EXPLAIN (FORMAT JSON). */
interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/**
 * Every scan in a plan: `Seq Scan on instances`, `Index Scan on instances (instances_pkey)`,
 * `Bitmap Index Scan (hosts_silent_idx)`.
 */
export function scansOf(plan: PlanNode): string[] {
  const on = plan['Relation Name'] !== undefined ? ` on ${plan['Relation Name']}` : '';
  const index = plan['Index Name'] !== undefined ? ` (${plan['Index Name']})` : '';
  const here = on || index ? [`${plan['Node Type']}${on}${index}`] : [];
  return [...here, ...(plan.Plans ?? []).flatMap(scansOf)];
}

/** The tables a plan reads whole: `Seq Scan on <table>`. */
export function seqScannedTables(scans: string[]): string[] {
  return scans.flatMap((s) => /^Seq Scan on (\S+)$/.exec(s)?.[1] ?? []);
}

/**
 * The plans PostgreSQL makes for `statements` with their parameters, as each call of an
 * unnamed statement gets them, and how many rows (pg_class.reltuples, after ANALYZE) each
 * table they scan holds. EXPLAIN without ANALYZE: nothing runs.
 */
export async function explainAll(
  url: string,
  statements: Statement[],
): Promise<{ sql: string; scans: string[]; rows: Map<string, number> }[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const sizes = await client.query<{ relname: string; reltuples: number }>(
      `select relname, reltuples::float8 as reltuples from pg_class
        where relkind = 'r' and relnamespace = 'public'::regnamespace`,
    );
    const rows = new Map(sizes.rows.map((r) => [r.relname, r.reltuples]));
    const out = [];
    for (const s of statements) {
      const explained = await client.query(`explain (format json) ${s.sql}`, s.params);
      out.push({ sql: s.sql, scans: scansOf(explained.rows[0]['QUERY PLAN'][0].Plan), rows });
    }
    return out;
  } finally {
    await client.end();
  }
}
