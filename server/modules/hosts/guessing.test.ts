import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentPaths } from '../../../shared/contracts/agent-protocol';
import { hosts } from '../../db/schema';
import { randomToken, sha256 } from '../../lib/crypto';
import { GUESS_LIMITS } from '../../lib/guess-limits';
import { createHost, createProvider } from '../../seed/factories';
import { createTestApp, type TestApp } from '../../test/app';
import { heartbeatBody } from '../../test/hosts';

/**
 * Guessing an agent's secrets (issue 39: an outside probe sent 200 random enrolment tokens and
 * got 200 × 401 in 7 s): enrolment tokens are limited per address and in all, an agent's
 * credential per address, each answered 429 with Retry-After and the error body.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const { enrolment, agentCredential } = GUESS_LIMITS;
const windowSeconds = enrolment.perAddress.windowMs / 1000;

const enrol = (token: string, from: string) =>
  t.request({
    method: 'POST',
    url: agentPaths.enroll,
    payload: { token, hostname: 'gpu-box', agentVersion: '0.1.0' },
    remoteAddress: from,
  });

/** A host waiting for its agent: the token the provider copied. */
async function hostAwaiting(): Promise<string> {
  const providerId = (await createProvider(t.database.db, {})).id;
  const token = randomToken(32);
  await t.database.db.insert(hosts).values({
    id: crypto.randomUUID(),
    providerId,
    name: 'new box',
    enrolTokenHash: sha256(token),
    enrolTokenExpiresAt: new Date(t.clock.now().getTime() + 3_600_000),
  });
  return token;
}

function expectLimited(res: Awaited<ReturnType<typeof enrol>>, maxSeconds: number) {
  expect(res.statusCode).toBe(429);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
  expect(res.json()).toEqual({
    error: {
      code: 'RATE_LIMITED',
      message: expect.any(String),
      details: { retryAfterSeconds: retryAfter },
    },
  });
}

describe('enrolment tokens', () => {
  it('from one address: the wrong ones up to the limit are 401, then every try is 429 until the window ends — a right token too', async () => {
    const from = '198.51.100.1';
    const right = await hostAwaiting();
    // A right token is given back: it does not use the limit up.
    expect((await enrol(await hostAwaiting(), from)).statusCode).toBe(201);
    const answers: number[] = [];
    for (let i = 0; i < 40; i++) answers.push((await enrol(randomToken(32), from)).statusCode);
    const limit = enrolment.perAddress.limit;
    expect(answers.slice(0, limit)).toEqual(Array(limit).fill(401));
    expect(answers.slice(limit)).toEqual(Array(40 - limit).fill(429));
    expectLimited(await enrol(right, from), windowSeconds);

    // Another address is not limited by this one's tries.
    expect((await enrol(randomToken(32), '198.51.100.2')).statusCode).toBe(401);
    // The window ends: the address may try again, and the right token enrols.
    t.clock.advance(enrolment.perAddress.windowMs + 1000);
    expect((await enrol(right, from)).statusCode).toBe(201);
  });

  it('from many addresses: the whole server takes so many wrong tokens a window, then 429 from anywhere', async () => {
    t.clock.advance(enrolment.perTarget.windowMs + 1000);
    const perTarget = enrolment.perTarget.limit;
    const perAddress = enrolment.perAddress.limit;
    // Each address stays under its own limit; together they reach the server's.
    const statuses: number[] = [];
    for (let i = 0; i < perTarget + 20; i++) {
      const from = `10.${Math.floor(i / perAddress / 250)}.${Math.floor(i / perAddress) % 250}.9`;
      statuses.push((await enrol(randomToken(32), from)).statusCode);
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(perTarget);
    expect(statuses.slice(perTarget)).toEqual(Array(20).fill(429));
    expectLimited(await enrol(randomToken(32), '192.0.2.200'), windowSeconds);
    t.clock.advance(enrolment.perTarget.windowMs + 1000);
    expect((await enrol(await hostAwaiting(), '192.0.2.200')).statusCode).toBe(201);
  });

  it('counts tries at once as they come: 60 concurrent wrong tokens from one address pass no more than the limit', async () => {
    t.clock.advance(enrolment.perTarget.windowMs + 1000);
    const answers = await Promise.all(
      Array.from({ length: 60 }, () => enrol(randomToken(32), '198.51.100.60')),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(enrolment.perAddress.limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(60 - enrolment.perAddress.limit);
  });
});

describe("an agent's credential", () => {
  const heartbeat = (credential: string, from: string) =>
    t.request({
      method: 'POST',
      url: agentPaths.heartbeat,
      payload: heartbeatBody(),
      headers: { authorization: `Bearer ${credential}` },
      remoteAddress: from,
    });

  it('counts only failures: wrong ones are 401 up to the limit, then 429; the right one still passes from there', async () => {
    t.clock.advance(agentCredential.perAddress.windowMs + 1000);
    const from = '203.0.113.77';
    const providerId = (await createProvider(t.database.db, {})).id;
    const host = await createHost(t.database.db, { providerId, lastHeartbeatAt: t.clock.now() });
    // A host heartbeats all day: right credentials never count.
    for (let i = 0; i < agentCredential.perAddress.limit + 5; i++)
      expect((await heartbeat(host.credential, from)).statusCode).toBe(200);

    const limit = agentCredential.perAddress.limit;
    const wrong: number[] = [];
    for (let i = 0; i < limit + 10; i++)
      wrong.push((await heartbeat(randomToken(32), from)).statusCode);
    expect(wrong.slice(0, limit)).toEqual(Array(limit).fill(401));
    expect(wrong.slice(limit)).toEqual(Array(10).fill(429));
    const limited = await heartbeat(randomToken(32), from);
    expectLimited(limited, agentCredential.perAddress.windowMs / 1000);
    // The wait and the report are the same check.
    const wait = await t.request({
      method: 'POST',
      url: agentPaths.wait,
      payload: { maxMs: 1000 },
      headers: { authorization: `Bearer ${randomToken(32)}` },
      remoteAddress: from,
    });
    expect(wait.statusCode).toBe(429);
    // 256 random bits are not guessed: a host's own credential from the same address passes.
    expect((await heartbeat(host.credential, from)).statusCode).toBe(200);
    // Another address is not limited by this one's failures.
    expect((await heartbeat(randomToken(32), '203.0.113.78')).statusCode).toBe(401);
  });
});
