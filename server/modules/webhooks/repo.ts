import { and, count, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Conn, Db } from '../../db/client';
import { webhookDeliveries, webhookEndpoints } from '../../db/schema';

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type NewWebhookDelivery = typeof webhookDeliveries.$inferInsert;

/** A claimed delivery with what its attempt needs of its endpoint. */
export interface ClaimedDelivery {
  id: string;
  eventId: bigint;
  body: string;
  attempts: number;
  firstAttemptAt: Date | null;
  endpointId: string;
  userId: string;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousUntil: Date | null;
}

const rowsOf = <T>(result: unknown): T[] =>
  ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];
const iso = (d: Date) => d.toISOString();
const uuidArray = (ids: string[]) => `{${ids.join(',')}}`;

export const webhooksRepo = {
  // ---- Endpoints ------------------------------------------------------------------------

  listByUser(conn: Conn, userId: string): Promise<WebhookEndpointRow[]> {
    return conn
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.userId, userId))
      .orderBy(webhookEndpoints.createdAt, webhookEndpoints.id);
  },

  async find(conn: Conn, userId: string, id: string): Promise<WebhookEndpointRow | null> {
    const [row] = await conn
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)));
    return row ?? null;
  },

  /** Locks the account's row: creates of one account take turns (the endpoint limit). */
  async lockAccount(conn: Conn, userId: string): Promise<void> {
    await conn.execute(sql`select 1 from users where id = ${userId}::uuid for update`);
  },

  async countByUser(conn: Conn, userId: string): Promise<number> {
    const [row] = await conn
      .select({ n: count() })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.userId, userId));
    return row?.n ?? 0;
  },

  /** The log's newest event now (0 when empty): where a new endpoint starts receiving. */
  async logEnd(conn: Conn): Promise<bigint> {
    const [row] = rowsOf<{ id: string }>(
      // The readers' bound, not max(id): an event with a lower id may still commit after it.
      await conn.execute(sql`select coalesce(rentgpu_event_bound(), 0)::text as id`),
    );
    return BigInt(row?.id ?? '0');
  },

  async insert(
    conn: Conn,
    values: typeof webhookEndpoints.$inferInsert,
  ): Promise<WebhookEndpointRow> {
    const [row] = await conn.insert(webhookEndpoints).values(values).returning();
    if (!row) throw new Error('webhook endpoint not written');
    return row;
  },

  async update(
    conn: Conn,
    userId: string,
    id: string,
    set: Partial<typeof webhookEndpoints.$inferInsert>,
  ): Promise<WebhookEndpointRow | null> {
    const [row] = await conn
      .update(webhookEndpoints)
      .set(set)
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
      .returning();
    return row ?? null;
  },

  async remove(conn: Conn, userId: string, id: string): Promise<boolean> {
    const rows = await conn
      .delete(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
      .returning({ id: webhookEndpoints.id });
    return rows.length > 0;
  },

  /** Pending deliveries per endpoint. */
  async pendingCounts(conn: Conn, endpointIds: string[]): Promise<Map<string, number>> {
    if (endpointIds.length === 0) return new Map();
    const rows = await conn
      .select({ endpointId: webhookDeliveries.endpointId, n: count() })
      .from(webhookDeliveries)
      .where(
        and(
          inArray(webhookDeliveries.endpointId, endpointIds),
          eq(webhookDeliveries.status, 'pending'),
        ),
      )
      .groupBy(webhookDeliveries.endpointId);
    return new Map(rows.map((r) => [r.endpointId, r.n]));
  },

  /** The enabled endpoints of these accounts (the reader's fan-out). */
  enabledOf(conn: Conn, userIds: string[]) {
    return conn
      .select({
        id: webhookEndpoints.id,
        userId: webhookEndpoints.userId,
        types: webhookEndpoints.types,
        fromEventId: webhookEndpoints.fromEventId,
      })
      .from(webhookEndpoints)
      .where(and(inArray(webhookEndpoints.userId, userIds), isNull(webhookEndpoints.disabledAt)));
  },

  /** Pending deliveries wait unscheduled while their endpoint is disabled… */
  async holdPending(conn: Conn, endpointId: string): Promise<void> {
    await conn
      .update(webhookDeliveries)
      .set({ nextAttemptAt: null })
      .where(
        and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'pending')),
      );
  },

  /**
   * …and are due again once it is enabled, each as a new run: three days and the backoff from
   * its start, `attempts` counted from 0.
   */
  async resumePending(conn: Conn, endpointId: string, now: Date): Promise<void> {
    await conn
      .update(webhookDeliveries)
      .set({ nextAttemptAt: now, firstAttemptAt: null, attempts: 0 })
      .where(
        and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'pending')),
      );
  },

  // ---- Deliveries -------------------------------------------------------------------------

  async insertDeliveries(conn: Conn, rows: NewWebhookDelivery[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 500) {
      await conn
        .insert(webhookDeliveries)
        .values(rows.slice(i, i + 500))
        .onConflictDoNothing({
          target: [webhookDeliveries.endpointId, webhookDeliveries.eventId],
        });
    }
  },

  listDeliveries(
    conn: Conn,
    endpointId: string,
    query: { status?: string | undefined; limit: number },
  ): Promise<WebhookDeliveryRow[]> {
    return conn
      .select()
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.endpointId, endpointId),
          query.status ? eq(webhookDeliveries.status, query.status) : undefined,
        ),
      )
      .orderBy(desc(webhookDeliveries.eventId))
      .limit(query.limit);
  },

  async findDelivery(
    conn: Conn,
    endpointId: string,
    id: string,
  ): Promise<WebhookDeliveryRow | null> {
    const [row] = await conn
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.endpointId, endpointId)));
    return row ?? null;
  },

  /**
   * "Send again": the same row, pending and due now as a new run (three days and the backoff
   * from its start, `attempts` from 0); the same event, so the same webhook-id and body. Not
   * while an attempt of it runs.
   */
  async resend(
    conn: Conn,
    endpointId: string,
    id: string,
    now: Date,
  ): Promise<WebhookDeliveryRow | null> {
    const [row] = await conn
      .update(webhookDeliveries)
      .set({
        status: 'pending',
        nextAttemptAt: now,
        firstAttemptAt: null,
        attempts: 0,
        claimedUntil: null,
      })
      .where(
        and(
          eq(webhookDeliveries.id, id),
          eq(webhookDeliveries.endpointId, endpointId),
          sql`(${webhookDeliveries.claimedUntil} is null or ${webhookDeliveries.claimedUntil} <= ${iso(now)}::timestamptz or ${webhookDeliveries.status} <> 'pending')`,
        ),
      )
      .returning();
    return row ?? null;
  },

  // ---- The delivery loop ------------------------------------------------------------------

  /**
   * Claims due deliveries (docs/decisions/027): at most `capacity`, at most `perEndpoint` in
   * flight per endpoint across every process, and never one while an earlier delivery (lower
   * event id) of its subject to its endpoint is pending. First the endpoints with due work
   * are locked (FOR UPDATE SKIP LOCKED: another process's claimer passes them by), then — in
   * a statement of its own, whose snapshot sees every claim committed before the lock was
   * taken — their deliveries are leased until `leaseUntil`; the lease is checked again on the
   * row itself. An attempt counts when it is claimed.
   */
  async claim(
    db: Db,
    now: Date,
    leaseUntil: Date,
    capacity: number,
    perEndpoint: number,
  ): Promise<ClaimedDelivery[]> {
    if (capacity <= 0) return [];
    const ids = await db.transaction(async (tx) => {
      const locked = rowsOf<{ id: string }>(
        await tx.execute(sql`
          select e.id from webhook_endpoints e
          where e.disabled_at is null and exists (
            select 1 from webhook_deliveries d
            where d.endpoint_id = e.id and d.status = 'pending'
              and d.next_attempt_at <= ${iso(now)}::timestamptz
              and (d.claimed_until is null or d.claimed_until <= ${iso(now)}::timestamptz))
          order by (
            select min(o.next_attempt_at) from webhook_deliveries o
            where o.endpoint_id = e.id and o.status = 'pending')
          limit 100
          for update of e skip locked`),
      ).map((r) => r.id);
      if (locked.length === 0) return [];
      const claimed = rowsOf<{ id: string }>(
        await tx.execute(sql`
          update webhook_deliveries w
          set claimed_until = ${iso(leaseUntil)}::timestamptz,
            attempts = w.attempts + 1,
            last_attempt_at = ${iso(now)}::timestamptz,
            first_attempt_at = coalesce(w.first_attempt_at, ${iso(now)}::timestamptz)
          where w.id = any(array(
            select c.id from unnest(${uuidArray(locked)}::uuid[]) as l(id)
            cross join lateral (
              select d.id from webhook_deliveries d
              where d.endpoint_id = l.id and d.status = 'pending'
                and d.next_attempt_at <= ${iso(now)}::timestamptz
                and (d.claimed_until is null or d.claimed_until <= ${iso(now)}::timestamptz)
                and not exists (
                  select 1 from webhook_deliveries p
                  where p.endpoint_id = d.endpoint_id and p.subject = d.subject
                    and p.status = 'pending' and p.event_id < d.event_id)
              order by d.event_id
              limit greatest(0, ${perEndpoint}::int - (
                select count(*)::int from webhook_deliveries f
                where f.endpoint_id = l.id and f.status = 'pending'
                  and f.claimed_until > ${iso(now)}::timestamptz))
            ) c
            limit ${capacity}
          ))
            and w.status = 'pending'
            and (w.claimed_until is null or w.claimed_until <= ${iso(now)}::timestamptz)
          returning w.id`),
      ).map((r) => r.id);
      return claimed;
    });
    if (ids.length === 0) return [];
    return db
      .select({
        id: webhookDeliveries.id,
        eventId: webhookDeliveries.eventId,
        body: webhookDeliveries.body,
        attempts: webhookDeliveries.attempts,
        firstAttemptAt: webhookDeliveries.firstAttemptAt,
        endpointId: webhookEndpoints.id,
        userId: webhookEndpoints.userId,
        url: webhookEndpoints.url,
        secret: webhookEndpoints.secret,
        previousSecret: webhookEndpoints.previousSecret,
        previousUntil: webhookEndpoints.previousUntil,
      })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(inArray(webhookDeliveries.id, ids))
      .orderBy(webhookDeliveries.eventId);
  },

  /**
   * An attempt's outcome, on the attempt that was claimed (`attempts`): a row claimed again
   * meanwhile (this sender's lease lapsed) keeps the newer attempt's. False when not written.
   */
  async recordAttempt(
    conn: Conn,
    id: string,
    attempts: number,
    set: {
      status: 'pending' | 'delivered' | 'failed';
      nextAttemptAt: Date | null;
      lastStatus: number | null;
      lastLatencyMs: number;
      lastError: string | null;
      responseExcerpt: string | null;
    },
  ): Promise<boolean> {
    const rows = await conn
      .update(webhookDeliveries)
      .set({ ...set, claimedUntil: null })
      .where(
        and(
          eq(webhookDeliveries.id, id),
          eq(webhookDeliveries.attempts, attempts),
          eq(webhookDeliveries.status, 'pending'),
        ),
      )
      .returning({ id: webhookDeliveries.id });
    return rows.length > 0;
  },

  async markSucceeding(conn: Conn, endpointId: string): Promise<void> {
    await conn
      .update(webhookEndpoints)
      .set({ failingSince: null })
      .where(
        and(eq(webhookEndpoints.id, endpointId), sql`${webhookEndpoints.failingSince} is not null`),
      );
  },

  /**
   * A failed attempt: the endpoint's run of failures starts now unless it already had; an
   * enabled endpoint failing since `disableBefore` or earlier is disabled ('failing') and returned.
   */
  async markFailing(
    conn: Conn,
    endpointId: string,
    now: Date,
    disableBefore: Date,
  ): Promise<WebhookEndpointRow | null> {
    await conn
      .update(webhookEndpoints)
      .set({ failingSince: now })
      .where(and(eq(webhookEndpoints.id, endpointId), isNull(webhookEndpoints.failingSince)));
    const [disabled] = await conn
      .update(webhookEndpoints)
      .set({ disabledAt: now, disabledReason: 'failing' })
      .where(
        and(
          eq(webhookEndpoints.id, endpointId),
          isNull(webhookEndpoints.disabledAt),
          lte(webhookEndpoints.failingSince, disableBefore),
        ),
      )
      .returning();
    return disabled ?? null;
  },
};
