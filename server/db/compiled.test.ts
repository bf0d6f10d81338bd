import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/database';
import type { Database } from './client';
import { compiled, compiledByShape } from './compiled';
import { sessions, users } from './schema';

/**
 * server/db/compiled.ts maps a compiled statement's rows itself and keeps its prepared query
 * per client: every row must be what drizzle's own prepared statement answers, flat, nested,
 * with SQL fields and their decoders, in a transaction and out, and with a left join's
 * missing side (left to drizzle).
 */
describe('compiled statements answer what drizzle answers (compiled.ts)', () => {
  let database: Database;
  const ids: string[] = [];

  beforeAll(async () => {
    database = await openTestDatabase();
    const { db } = database;
    for (const [i, email] of ['a@example.com', 'b@example.com', 'c@example.com'].entries()) {
      const [row] = await db
        .insert(users)
        .values({ email, firstName: i === 1 ? null : `F${i}`, settings: { n: i, nested: [i] } })
        .returning({ id: users.id });
      ids.push(row?.id as string);
    }
    await db.insert(sessions).values([
      { tokenHash: 'h0', userId: ids[0] as string, expiresAt: new Date('2030-01-01T00:00:00Z') },
      { tokenHash: 'h1', userId: ids[0] as string, expiresAt: new Date('2031-01-01T00:00:00Z') },
    ]);
  });

  afterAll(async () => {
    await database?.close();
  });

  it('flat rows of a whole table, with dates, JSON and nulls', async () => {
    const build = (conn: Database['db']) =>
      conn
        .select()
        .from(users)
        .where(eq(users.email, sql.placeholder('email')));
    const run = compiled<{ email: string }, (typeof users.$inferSelect)[]>(
      'compiled_test_flat',
      build,
    );
    for (const email of ['a@example.com', 'b@example.com', 'none@example.com']) {
      const ours = await run(database.db, { email });
      const theirs = await build(database.db).prepare('compiled_test_flat_ref').execute({ email });
      expect(ours).toEqual(theirs);
      if (ours[0]) {
        expect(ours[0].createdAt).toBeInstanceOf(Date);
        expect(Object.keys(ours[0])).toEqual(Object.keys(theirs[0] as object));
      }
    }
    // Again, in a transaction (another client), and once more on the pool.
    await database.db.transaction(async (tx) => {
      expect(await run(tx, { email: 'c@example.com' })).toEqual(
        await build(tx).prepare('compiled_test_flat_ref').execute({ email: 'c@example.com' }),
      );
    });
    expect((await run(database.db, { email: 'c@example.com' }))[0]?.settings).toEqual({
      n: 2,
      nested: [2],
    });
  });

  it('nested selections, SQL fields with their decoders, an inner join', async () => {
    const build = (conn: Database['db']) =>
      conn
        .select({
          id: sessions.id,
          user: { email: users.email, name: users.firstName },
          expires: { at: sessions.expiresAt },
          count:
            sql<number>`(select count(*) from sessions s where s.user_id = ${users.id})`.mapWith(
              Number,
            ),
          label: sql<string>`upper(${users.email})`,
        })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(eq(sessions.userId, sql.placeholder('user')))
        .orderBy(sessions.tokenHash);
    const run = compiled<{ user: string }, unknown[]>('compiled_test_nested', build);
    const ours = await run(database.db, { user: ids[0] as string });
    const theirs = await build(database.db)
      .prepare('compiled_test_nested_ref')
      .execute({ user: ids[0] as string });
    expect(ours).toEqual(theirs);
    expect(ours).toHaveLength(2);
    expect(ours[0]).toMatchObject({
      user: { email: 'a@example.com', name: 'F0' },
      count: 2,
      label: 'A@EXAMPLE.COM',
    });
    expect((ours[1] as { expires: { at: Date } }).expires.at).toEqual(
      new Date('2031-01-01T00:00:00Z'),
    );
  });

  it("a left join's missing side is null, as drizzle makes it", async () => {
    const build = (conn: Database['db']) =>
      conn
        .select({ email: users.email, session: { token: sessions.tokenHash } })
        .from(users)
        .leftJoin(sessions, eq(sessions.userId, users.id))
        .where(eq(users.email, sql.placeholder('email')));
    const run = compiled<{ email: string }, unknown[]>('compiled_test_left', build);
    const ours = await run(database.db, { email: 'b@example.com' });
    expect(ours).toEqual([{ email: 'b@example.com', session: null }]);
    expect(ours).toEqual(
      await build(database.db)
        .prepare('compiled_test_left_ref')
        .execute({ email: 'b@example.com' }),
    );
  });

  it('inserts and updates by shape return their rows as drizzle does', async () => {
    const update = compiledByShape<(typeof users.$inferSelect)[]>(
      'compiled_test_update',
      (conn, set) =>
        conn
          .update(users)
          .set(set)
          .where(eq(users.id, sql.placeholder('__id')))
          .returning(),
    );
    const [row] = (await update(database.db, { lastName: 'L', phone: null }, undefined, {
      __id: ids[2],
    })) as (typeof users.$inferSelect)[];
    expect(row).toMatchObject({ id: ids[2], lastName: 'L', phone: null, firstName: 'F2' });
    expect(row?.updatedAt ?? row?.createdAt).toBeInstanceOf(Date);
    const [again] = await database.db
      .select()
      .from(users)
      .where(eq(users.id, ids[2] as string));
    expect(row).toEqual(again);
  });

  it('makes one statement a shape, whatever order its keys are written in', async () => {
    let built = 0;
    const update = compiledByShape<(typeof users.$inferSelect)[]>(
      'compiled_test_order',
      (conn, set) => {
        built += 1;
        return conn
          .update(users)
          .set(set)
          .where(eq(users.id, sql.placeholder('__id')))
          .returning();
      },
    );
    const at = { __id: ids[1] };
    const one = await update(database.db, { lastName: 'M', phone: null }, undefined, at);
    const two = await update(database.db, { phone: null, lastName: 'N' }, undefined, at);
    const three = await update(database.db, { lastName: 'O', phone: null }, undefined, at);
    expect(built).toBe(1);
    expect([one, two, three].map((rows) => rows?.[0]?.lastName)).toEqual(['M', 'N', 'O']);
    // Another shape (a value set where null was), and a value that is SQL: none is compiled.
    await update(database.db, { lastName: 'P', phone: '+1 555' }, undefined, at);
    expect(built).toBe(2);
    expect(update(database.db, { lastName: sql`'Q'` }, undefined, at)).toBeNull();
    expect(built).toBe(2);
  });
});
