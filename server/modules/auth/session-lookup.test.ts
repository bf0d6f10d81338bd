import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { openTestDatabase } from '../../test/database';
import { StatementLog } from '../../test/idle-plans';

/**
 * Signed-in requests that arrive together look their sessions up in one statement
 * (server/lib/batched-lookup.ts), and nothing is cached: a session ended before a request is
 * refused by it. Counted in statements the app really sends, never in time.
 */

const log = new StatementLog();
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let t: TestApp;
beforeAll(async () => {
  database = await openTestDatabase({ logger: log });
  t = await createTestApp({ database });
  // Only the requests' own statements are counted: the event log's readers stop.
  await t.app.deps.eventLog.close();
});
afterAll(async () => {
  await t?.close();
  await database?.close();
});

const sessionReads = (sql: string) => /from "sessions"/i.test(sql) && /^\s*select/i.test(sql);
const whoAmI = (cookie: string) => t.request({ method: 'GET', url: '/api/auth/user', cookie });

describe('session lookups', () => {
  it('five users’ requests sent together read their sessions in one statement, each its own', async () => {
    const users = await Promise.all([1, 2, 3, 4, 5].map(() => t.signIn()));
    // Two requests of the first user among them: the same session, read once.
    const cookies = [...users.map((u) => u.cookie), users[0]?.cookie ?? ''];
    let answers: Awaited<ReturnType<typeof whoAmI>>[] = [];
    const statements = await log.during(async () => {
      answers = await Promise.all(cookies.map(whoAmI));
    });
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(answers.map((a) => a.json().id)).toEqual([
      ...users.map((u) => u.userId),
      users[0]?.userId,
    ]);
    expect(statements.filter((s) => sessionReads(s.sql))).toHaveLength(1);
  });

  it('a request after another one’s sign-out is refused: nothing is kept between batches', async () => {
    const user = await t.signIn();
    expect((await whoAmI(user.cookie)).statusCode).toBe(200);
    const out = await t.request({ method: 'GET', url: '/api/logout', cookie: user.cookie });
    expect(out.statusCode).toBe(302);
    expect((await whoAmI(user.cookie)).statusCode).toBe(401);
  });

  it('an unknown token among live ones is refused alone', async () => {
    const user = await t.signIn();
    const [live, unknown] = await Promise.all([
      whoAmI(user.cookie),
      whoAmI(user.cookie.replace(/=([^;]*)/, '=not-a-session-token')),
    ]);
    expect(live.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(401);
  });
});
