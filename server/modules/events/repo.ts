import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { EventSubjectKind, EventType } from '../../../shared/contracts/events';
import type { Conn } from '../../db/client';
import type { EventFilter, StoredEvent } from './types';

export interface NewEvent {
  type: EventType;
  at: Date;
  accountUserId: string;
  subjectKind: EventSubjectKind;
  subjectId: string;
  data: Record<string, unknown>;
}

interface EventRow {
  id: string;
  type: EventType;
  at: string | Date;
  account_user_id: string;
  subject_kind: EventSubjectKind;
  subject_id: string;
  subject_seq: string | number;
  data: Record<string, unknown> | string;
}

function toEvent(row: EventRow): StoredEvent {
  return {
    id: BigInt(row.id),
    type: row.type,
    at: row.at instanceof Date ? row.at : new Date(row.at),
    accountUserId: row.account_user_id,
    subjectKind: row.subject_kind,
    subjectId: row.subject_id,
    subjectSeq: Number(row.subject_seq),
    data: typeof row.data === 'string' ? JSON.parse(row.data) : row.data,
  };
}

const rowsOf = (result: unknown): EventRow[] =>
  ((result as { rows?: EventRow[] }).rows ?? (result as EventRow[])) as EventRow[];

/**
 * The highest id a reader may pass now (migration 0037, rentgpu_event_bound): every id at or
 * under it has committed, or never will. Read in a statement BEFORE the statement that reads
 * the events (a later snapshot), on a connection in read-committed mode: on its own, or in the
 * RETURNING of a durable reader's lease (leaseReader).
 */
async function boundOf(conn: Conn): Promise<bigint> {
  const result = await conn.execute(sql`select coalesce(rentgpu_event_bound(), 0)::text as id`);
  return BigInt(rowsOf(result)[0]?.id ?? '0');
}

/**
 * The log's one way in for what no row's trigger writes (docs/decisions/027): spend-cap
 * warnings, low balance, webhook pings and disables. Written with the caller's connection,
 * so inside its transaction; the subject's sequence is counted in `event_subjects`.
 */
export const eventsRepo = {
  async append(conn: Conn, e: NewEvent): Promise<bigint> {
    // A wallet counts its events on its ledger row, as its postings' events do.
    const seq =
      e.subjectKind === 'wallet'
        ? sql`update ledger_accounts set event_seq = event_seq + 1
            where kind = 'wallet' and user_id = ${e.subjectId}::uuid returning event_seq as seq`
        : sql`insert into event_subjects (subject_kind, subject_id, seq)
            values (${e.subjectKind}, ${e.subjectId}, 1)
            on conflict (subject_kind, subject_id) do update set seq = event_subjects.seq + 1
            returning seq`;
    // rentgpu_emit notes the transaction for readers before it takes an id, as the triggers do.
    const result = await conn.execute(sql`
      with s as (${seq})
      select rentgpu_emit(${e.type}, ${e.at.toISOString()}::timestamptz, ${e.accountUserId}::uuid,
        ${e.subjectKind}, ${e.subjectId}, s.seq, ${JSON.stringify(e.data)}::jsonb)::text as id
      from s`);
    const [row] = rowsOf(result);
    if (!row) throw new Error('event not written');
    return BigInt(row.id);
  },

  /**
   * Events after a cursor, oldest first, up to the bound: none a transaction still running
   * could commit under them later (two statements: the bound, then the events).
   */
  async list(conn: Conn, f: EventFilter): Promise<StoredEvent[]> {
    return eventsRepo.listUpTo(conn, f, await boundOf(conn));
  },

  /**
   * Events after a cursor up to a bound read by an earlier statement (leaseReader's, or
   * `end`'s): none when the bound is not past the cursor (no statement sent).
   */
  async listUpTo(conn: Conn, f: EventFilter, bound: bigint): Promise<StoredEvent[]> {
    if (bound <= f.after) return [];
    const where = [
      sql`e.id > ${f.after.toString()}::bigint`,
      sql`e.id <= ${bound.toString()}::bigint`,
    ];
    if (f.accountUserId) where.push(sql`e.account_user_id = ${f.accountUserId}::uuid`);
    if (f.subject)
      where.push(sql`e.subject_kind = ${f.subject.kind} and e.subject_id = ${f.subject.id}`);
    if (f.accountsIn) where.push(sql`e.account_user_id in (${f.accountsIn})`);
    const typeParts = [];
    if (f.types && f.types.length > 0)
      typeParts.push(sql`e.type = any(${`{${f.types.join(',')}}`}::text[])`);
    if (f.subjectKinds && f.subjectKinds.length > 0)
      typeParts.push(sql`e.subject_kind = any(${`{${f.subjectKinds.join(',')}}`}::text[])`);
    if (typeParts.length > 0) where.push(sql`(${sql.join(typeParts, sql` or `)})`);
    const result = await conn.execute(sql`
      select e.id::text, e.type, e.at, e.account_user_id, e.subject_kind, e.subject_id,
        e.subject_seq, e.data
      from events e where ${sql.join(where, sql` and `)}
      order by e.id limit ${f.limit}`);
    return rowsOf(result).map(toEvent);
  },

  /**
   * Whether events after `after` are committed but above the bound (a transaction still
   * running holds readers back): read again shortly.
   */
  async unsettledAfter(conn: Conn, after: bigint): Promise<boolean> {
    // One statement: the bound is read after its snapshot was taken, so an event this
    // statement sees above the bound committed while a writer under it still runs. The bound
    // is a subquery so that it is read once (the function is volatile), not once per row. The
    // cursor is a condition of its own: compared with greatest(bound, cursor), a value the
    // planner cannot know, PostgreSQL took a third of the log to match and read it from its
    // start (a sequential scan of the whole history: request-plans.test.ts).
    const result = await conn.execute(
      sql`select exists (select 1 from events e
        where e.id > ${after.toString()}::bigint
          and e.id > (select coalesce(rentgpu_event_bound(), 0))) as waiting`,
    );
    return (rowsOf(result)[0] as unknown as { waiting: boolean } | undefined)?.waiting === true;
  },

  /** Where a reader starting now begins: the bound (0 when nothing was ever written). */
  end: (conn: Conn): Promise<bigint> => boundOf(conn),

  /**
   * Takes a durable reader's turn for `leaseMs` (one process at a time reads for it; a process
   * that dies lets its lease run out and another reads the same events again: at least once).
   * Its cursor and the lease's token, or null while another process holds it. Created at the
   * log's bound the first time.
   */
  async leaseReader(
    conn: Conn,
    name: string,
    leaseMs: number,
  ): Promise<{ cursor: bigint; token: string; bound: bigint } | null> {
    const token = randomUUID();
    // The lease and the log's bound in one statement (the events are read by a later one).
    const lease = async () => {
      const result = await conn.execute(sql`
        update event_readers set leased_until = now() + ${`${leaseMs} milliseconds`}::interval,
          lease_token = ${token}
        where name = ${name} and (leased_until is null or leased_until < now())
        returning last_id::text as id, coalesce(rentgpu_event_bound(), 0)::text as bound`);
      const row = rowsOf(result)[0] as unknown as { id: string; bound: string } | undefined;
      return row ? { cursor: BigInt(row.id), token, bound: BigInt(row.bound) } : null;
    };
    const leased = await lease();
    if (leased) return leased;
    // Leased by another process, or never read yet: created at the log's bound the first time.
    const created = await conn.execute(sql`
      insert into event_readers (name, last_id) values (${name}, coalesce(rentgpu_event_bound(), 0))
      on conflict (name) do nothing returning name`);
    return rowsOf(created).length === 1 ? lease() : null;
  },

  /**
   * Each durable reader's cursor, made at the log's bound where it has none: a process that
   * starts following the log makes them first, so no event written after its start is passed
   * (made at its first pass instead, a reader skipped what was written before that pass).
   */
  async ensureReaders(conn: Conn, names: readonly string[]): Promise<void> {
    if (names.length === 0) return;
    await conn.execute(sql`
      insert into event_readers (name, last_id)
      select n, coalesce(rentgpu_event_bound(), 0) from unnest(${`{${names.join(',')}}`}::text[]) as n
      on conflict (name) do nothing`);
  },

  /** Keeps the turn `leaseMs` longer; false when it was lost (another process has it now). */
  async renewReader(conn: Conn, name: string, token: string, leaseMs: number): Promise<boolean> {
    const result = await conn.execute(sql`
      update event_readers set leased_until = now() + ${`${leaseMs} milliseconds`}::interval
      where name = ${name} and lease_token = ${token} returning name`);
    return rowsOf(result).length === 1;
  },

  /**
   * Moves the cursor on (when given; never back) and gives the turn back — only while the turn
   * is still this one's: false when it was lost (then nothing changed).
   */
  async releaseReader(
    conn: Conn,
    name: string,
    token: string,
    lastId: bigint | null,
  ): Promise<boolean> {
    const result = await conn.execute(
      lastId === null
        ? sql`update event_readers set leased_until = null, lease_token = null
            where name = ${name} and lease_token = ${token} returning name`
        : sql`update event_readers set last_id = greatest(last_id, ${lastId.toString()}::bigint),
            leased_until = null, lease_token = null, updated_at = now()
            where name = ${name} and lease_token = ${token} returning name`,
    );
    return rowsOf(result).length === 1;
  },

  /**
   * Deletes events older than `before` among the `batch` first of the log (its oldest: events
   * are written in time order), so a pass reads at most `batch` rows on the primary key and an
   * idle one nothing more; one written with an earlier time goes when it reaches the front.
   */
  async prune(conn: Conn, before: Date, batch: number): Promise<number> {
    const result = await conn.execute(sql`
      delete from events where id = any(array(
        select id from (select id, at from events order by id limit ${batch}) oldest
        where at < ${before.toISOString()}::timestamptz))
      returning id`);
    return rowsOf(result).length;
  },
};
