import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { MAX_DEADLINE_MS } from '../../../shared/rules/deadlines';
import { instances } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { createApiKey, type V1Args, v1Request } from '../../test/public-api';
import { SLOW_DEMO_HOST_ENV, setupTestApp, type World } from '../../test/suite';

/**
 * Deadlines (issue 23, part 5): "stop at" and "terminate at" set on create or later through
 * /api/kvm and /api/v1, read back, checked, and carried out by the worker at the deadline and
 * not before, as the renter's own stop or terminate would be; across a restart; once with two
 * workers. Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */
let t: TestApp;
let w: World;
setupTestApp({ env: SLOW_DEMO_HOST_ENV }, (app, appWorld) => {
  t = app;
  w = appWorld;
});
const others: TestApp[] = [];
afterAll(async () => {
  for (const other of others) await other.close();
});

const MIN = 60_000;
const tick = (app = t) => app.app.deps.worker.runOnce(app.clock.now());
const inMs = (ms: number, app = t) => new Date(app.clock.now().getTime() + ms).toISOString();
const kvm = (
  cookie: string,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
) =>
  t.request({
    method,
    url,
    cookie,
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  });
const v1 = (...args: V1Args) => v1Request(t, ...args);
/** Moves a test app's manual clock to `at`. */
const setClock = (app: TestApp, at: Date) =>
  app.clock.advance(at.getTime() - app.clock.now().getTime());

async function row(id: number, app = t) {
  const [found] = await app.database.db.select().from(instances).where(eq(instances.id, id));
  if (!found) throw new Error('instance gone');
  return found;
}

/** A signed-in renter with credits and a VM listing of their own model. */
async function renter(model: string) {
  const user = await t.signIn({ credits: '50.00' });
  await w.listing({ model, memory: '24GB', hourlyRate: '1.20', totalCount: 4 });
  return user;
}

async function createVm(cookie: string, model: string, extra: Record<string, unknown> = {}) {
  const res = await kvm(cookie, 'POST', '/api/kvm/instances', { gpu_type: model, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { vm_id: number; stop_at: string | null; terminate_at: string | null };
}

async function untilRunning(id: number, app = t) {
  app.clock.advance(20_000);
  await tick(app);
  expect((await row(id, app)).status).toBe('running');
}

async function emailOf(cookie: string): Promise<string> {
  return (await t.request({ method: 'GET', url: '/api/auth/user', cookie })).json().email;
}
/**
 * Alerts go out from the event log's mail reader, in whichever app on the database holds its
 * turn — this file's first app or any other it started (`others`) — after the change commits:
 * counted across all of them, and waited for.
 */
const mailed = (to: string, subject: string, apps: TestApp[] = [t, ...others]) =>
  vi.waitFor(
    () => {
      const found = apps
        .flatMap((app) => app.mailer.sent)
        .filter((m) => m.to === to && m.subject.includes(subject));
      if (found.length === 0) throw new Error(`no "${subject}" mail to ${to}`);
      return found.length;
    },
    { timeout: 10_000 },
  );

describe('setting deadlines on /api/kvm', () => {
  it('takes them on create, reads them back, changes and clears them later', async () => {
    const user = await renter('Deadline GPU A');
    const stopAt = inMs(2 * 60 * MIN);
    const vm = await createVm(user.cookie, 'Deadline GPU A', { stop_at: stopAt });
    expect(vm.stop_at).toBe(stopAt);
    expect(vm.terminate_at).toBeNull();

    const terminateAt = inMs(24 * 60 * MIN);
    const changed = await kvm(user.cookie, 'PATCH', `/api/kvm/instances/${vm.vm_id}`, {
      terminate_at: terminateAt,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ stop_at: stopAt, terminate_at: terminateAt });

    const list = (await kvm(user.cookie, 'GET', '/api/kvm/instances')).json() as {
      vm_id: number;
      stop_at: string | null;
    }[];
    expect(list.find((v) => v.vm_id === vm.vm_id)).toMatchObject({
      stop_at: stopAt,
      terminate_at: terminateAt,
    });

    const cleared = await kvm(user.cookie, 'PATCH', `/api/kvm/instances/${vm.vm_id}`, {
      stop_at: null,
    });
    expect(cleared.json()).toMatchObject({ stop_at: null, terminate_at: terminateAt });
    expect((await row(vm.vm_id)).stopAt).toBeNull();
    await kvm(user.cookie, 'DELETE', `/api/kvm/instances/${vm.vm_id}`);
  });

  it('refuses a time in the past, beyond a year or not a time with 400 naming the field', async () => {
    const user = await renter('Deadline GPU B');
    const bad: [Record<string, unknown>, string, string][] = [
      [{ stop_at: inMs(-MIN) }, 'stop_at', 'stop_at must be in the future'],
      [{ terminate_at: inMs(MAX_DEADLINE_MS + MIN) }, 'terminate_at', 'within a year'],
      [{ stop_at: 'tomorrow' }, 'stop_at', 'ISO 8601'],
    ];
    for (const [body, field, words] of bad) {
      const res = await kvm(user.cookie, 'POST', '/api/kvm/instances', {
        gpu_type: 'Deadline GPU B',
        ...body,
      });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      const { error } = res.json();
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.details.fields[field].join(' ')).toContain(words);
    }
    expect((await kvm(user.cookie, 'GET', '/api/kvm/instances')).json()).toEqual([]);

    const vm = await createVm(user.cookie, 'Deadline GPU B');
    const url = `/api/kvm/instances/${vm.vm_id}`;
    const past = await kvm(user.cookie, 'PATCH', url, { terminate_at: inMs(0) });
    expect(past.statusCode).toBe(400);
    expect(past.json().error.details.fields.terminate_at).toEqual([
      'terminate_at must be in the future',
    ]);
    const empty = await kvm(user.cookie, 'PATCH', url, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.code).toBe('VALIDATION_FAILED');
    // Someone else's VM is not found; an ended one takes no deadline.
    const other = await t.signIn({ credits: '1.00' });
    const theirs = await kvm(other.cookie, 'PATCH', url, { stop_at: inMs(MIN) });
    expect(theirs.statusCode).toBe(404);
    await kvm(user.cookie, 'DELETE', url);
    const ended = await kvm(user.cookie, 'PATCH', url, { stop_at: inMs(MIN) });
    expect(ended.statusCode).toBe(409);
    // In the words of what was asked: a change of its times, not a terminate.
    expect(ended.json().error).toMatchObject({
      code: 'INVALID_STATE_TRANSITION',
      message: `An instance that is ${(await row(vm.vm_id)).status} cannot change its stop or terminate time.`,
      details: { action: 'deadlines', allowedActions: [] },
    });
    const idle = await kvm(user.cookie, 'PATCH', url, { idle_stop_minutes: 30 });
    expect(idle.statusCode).toBe(409);
    expect(idle.json().error.message).toMatch(
      /^An instance that is \w+ cannot change its idle stop\.$/,
    );
  });

  it('refuses "terminate at" before "stop at": on create, on a change, and against a time already set', async () => {
    const user = await renter('Deadline GPU I');
    const stopAt = inMs(2 * 60 * MIN);
    const early = inMs(60 * MIN);
    // Both on create: 400 on terminate_at, nothing created.
    const both = await kvm(user.cookie, 'POST', '/api/kvm/instances', {
      gpu_type: 'Deadline GPU I',
      stop_at: stopAt,
      terminate_at: early,
    });
    expect(both.statusCode).toBe(400);
    expect(both.json().error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { fields: { terminate_at: ['terminate_at must not be before stop_at'] } },
    });
    expect((await kvm(user.cookie, 'GET', '/api/kvm/instances')).json()).toEqual([]);

    // Equal times are fine: the terminate carries it past its stop.
    const vm = await createVm(user.cookie, 'Deadline GPU I', {
      stop_at: stopAt,
      terminate_at: stopAt,
    });
    const url = `/api/kvm/instances/${vm.vm_id}`;
    // A terminate before the stop already set: 400 naming terminate_at and the stop's time.
    const sooner = await kvm(user.cookie, 'PATCH', url, { terminate_at: early });
    expect(sooner.statusCode).toBe(400);
    expect(sooner.json().error.details.fields).toEqual({
      terminate_at: [`terminate_at must not be before stop_at (${stopAt}, already set)`],
    });
    // A stop after the terminate already set: 400 naming stop_at.
    const later = await kvm(user.cookie, 'PATCH', url, { stop_at: inMs(3 * 60 * MIN) });
    expect(later.statusCode).toBe(400);
    expect(later.json().error.details.fields).toEqual({
      stop_at: [`stop_at must not be after terminate_at (${stopAt}, already set)`],
    });
    // Both in one change: checked against each other, not the stored ones.
    const swapped = await kvm(user.cookie, 'PATCH', url, {
      stop_at: inMs(3 * 60 * MIN),
      terminate_at: inMs(4 * 60 * MIN),
    });
    expect(swapped.statusCode, swapped.body).toBe(200);
    // The stored times did not move for the refused changes; clearing the stop frees the terminate.
    expect((await row(vm.vm_id)).terminateAt?.toISOString()).toBe(inMs(4 * 60 * MIN));
    expect((await kvm(user.cookie, 'PATCH', url, { stop_at: null })).statusCode).toBe(200);
    expect((await kvm(user.cookie, 'PATCH', url, { terminate_at: early })).statusCode).toBe(200);
    await kvm(user.cookie, 'DELETE', url);
  });
});

describe('the worker carries deadlines out', () => {
  it('stops at "stop at" and not before, billed as the renter\'s own stop, and says why', async () => {
    const user = await renter('Deadline GPU C');
    const timed = await createVm(user.cookie, 'Deadline GPU C', { stop_at: inMs(10 * MIN) });
    const twin = await createVm(user.cookie, 'Deadline GPU C');
    await untilRunning(timed.vm_id);
    expect((await row(twin.vm_id)).status).toBe('running');

    // Up to the deadline, minute by minute: still running.
    for (let i = 0; i < 9; i += 1) {
      t.clock.advance(MIN);
      await tick();
    }
    t.clock.advance(MIN - 20_000 - 1);
    await tick();
    expect((await row(timed.vm_id)).status).toBe('running');

    // The deadline: stopped, its disk kept, the deadline cleared, the reason recorded. The
    // twin is stopped by its renter at the same moment: both must cost the same.
    t.clock.advance(1);
    const own = await kvm(user.cookie, 'POST', `/api/kvm/instances/${twin.vm_id}/stop`);
    expect(own.statusCode).toBe(200);
    const done = await tick();
    expect(done['deadline-stop']).toBe(1);
    const stopped = await row(timed.vm_id);
    expect(['stopping', 'stopped']).toContain(stopped.status);
    expect(stopped.endTime).toBeNull();
    expect(stopped.endReason).toBe('deadline_stop');
    expect(stopped.stopAt).toBeNull();
    t.clock.advance(5 * MIN);
    await tick();
    const [a, b] = [await row(timed.vm_id), await row(twin.vm_id)];
    expect(a.chargedMicros).toBe(b.chargedMicros);
    expect(a.computeMinutes).toBe(b.computeMinutes);

    // The renter is told: the card's end reason, and an instance alert.
    const list = (await kvm(user.cookie, 'GET', '/api/kvm/instances')).json() as {
      vm_id: number;
    }[];
    expect(list.find((v) => v.vm_id === timed.vm_id)).toMatchObject({
      end_reason: 'deadline_stop',
      stop_at: null,
    });
    const email = await emailOf(user.cookie);
    expect(await mailed(email, `Instance #${timed.vm_id} was stopped at its deadline`)).toBe(1);

    // Started again, it runs on: the deadline was carried out once.
    t.clock.advance(MIN);
    await tick();
    const again = await kvm(user.cookie, 'POST', `/api/kvm/instances/${timed.vm_id}/start`);
    expect(again.statusCode).toBe(200);
    await untilRunning(timed.vm_id);
    t.clock.advance(5 * MIN);
    expect((await tick())['deadline-stop']).toBe(0);
    expect((await row(timed.vm_id)).status).toBe('running');
    for (const id of [timed.vm_id, twin.vm_id])
      await kvm(user.cookie, 'DELETE', `/api/kvm/instances/${id}`);
  });

  it('terminates at "terminate at", set later, and tells the renter', async () => {
    const user = await renter('Deadline GPU D');
    const vm = await createVm(user.cookie, 'Deadline GPU D');
    await untilRunning(vm.vm_id);
    const patched = await kvm(user.cookie, 'PATCH', `/api/kvm/instances/${vm.vm_id}`, {
      terminate_at: inMs(3 * MIN),
    });
    expect(patched.statusCode).toBe(200);
    t.clock.advance(2 * MIN);
    await tick();
    expect((await row(vm.vm_id)).endTime).toBeNull();
    t.clock.advance(MIN);
    expect((await tick())['deadline-terminate']).toBe(1);
    const ended = await row(vm.vm_id);
    expect(['terminating', 'terminated']).toContain(ended.status);
    expect(ended.endReason).toBe('deadline_terminate');
    const email = await emailOf(user.cookie);
    expect(await mailed(email, `Instance #${vm.vm_id} was terminated at its deadline`)).toBe(1);
    // Ended: nothing left to do, so no deadline is shown.
    const list = (await kvm(user.cookie, 'GET', '/api/kvm/instances')).json() as {
      vm_id: number;
    }[];
    expect(list.find((v) => v.vm_id === vm.vm_id)).toMatchObject({
      stop_at: null,
      terminate_at: null,
      end_reason: 'deadline_terminate',
    });
  });

  it('keeps a deadline across a restart: a new app on the same database carries it out', async () => {
    const user = await renter('Deadline GPU E');
    const vm = await createVm(user.cookie, 'Deadline GPU E', { stop_at: inMs(5 * MIN) });
    await untilRunning(vm.vm_id);
    const restarted = await createTestApp({ env: SLOW_DEMO_HOST_ENV, database: t.database });
    others.push(restarted);
    setClock(restarted, new Date(t.clock.now().getTime() + 5 * MIN));
    expect((await tick(restarted))['deadline-stop']).toBe(1);
    const stopped = await row(vm.vm_id);
    expect(['stopping', 'stopped']).toContain(stopped.status);
    expect(stopped.endReason).toBe('deadline_stop');
    setClock(t, restarted.clock.now());
    await kvm(user.cookie, 'DELETE', `/api/kvm/instances/${vm.vm_id}`);
  });

  it('acts once when two workers pass at the same time', async () => {
    const user = await renter('Deadline GPU F');
    const stopping = await createVm(user.cookie, 'Deadline GPU F', { stop_at: inMs(2 * MIN) });
    const ending = await createVm(user.cookie, 'Deadline GPU F', { terminate_at: inMs(2 * MIN) });
    await untilRunning(stopping.vm_id);
    const second = await createTestApp({ env: SLOW_DEMO_HOST_ENV, database: t.database });
    others.push(second);
    t.clock.advance(2 * MIN);
    setClock(second, t.clock.now());
    const [one, two] = await Promise.all([tick(), tick(second)]);
    expect((one['deadline-stop'] ?? 0) + (two['deadline-stop'] ?? 0)).toBe(1);
    expect((one['deadline-terminate'] ?? 0) + (two['deadline-terminate'] ?? 0)).toBe(1);
    expect((await row(stopping.vm_id)).endReason).toBe('deadline_stop');
    expect((await row(ending.vm_id)).endReason).toBe('deadline_terminate');
    const email = await emailOf(user.cookie);
    expect(await mailed(email, `Instance #${ending.vm_id} was terminated`)).toBe(1);
    await kvm(user.cookie, 'DELETE', `/api/kvm/instances/${stopping.vm_id}`);
  });
});

describe('deadlines on /api/v1/instances', () => {
  it('takes stopAt on create, reads it back, and sets or clears both with PATCH', async () => {
    const user = await t.signIn({ credits: '50.00' });
    const { key } = await createApiKey(t, user.cookie, ['read', 'write']);
    const listing = await w.listing({ model: 'Deadline GPU G', hourlyRate: '1.20' });
    const stopAt = inMs(90 * MIN);
    const created = await v1(key, 'POST', '/instances', { gpuListingId: listing.id, stopAt });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json().instance;
    expect(created.json().instance).toMatchObject({ stopAt, terminateAt: null });
    expect((await v1(key, 'GET', `/instances/${id}`)).json().instance.stopAt).toBe(stopAt);

    const terminateAt = inMs(24 * 60 * MIN);
    const patched = await v1(key, 'PATCH', `/instances/${id}`, { stopAt: null, terminateAt });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().instance).toMatchObject({ stopAt: null, terminateAt });

    const past = await v1(key, 'PATCH', `/instances/${id}`, { stopAt: inMs(-1) });
    expect(past.statusCode).toBe(400);
    expect(past.json().error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { fields: { stopAt: ['stopAt must be in the future'] } },
    });
    const far = await v1(key, 'PATCH', `/instances/${id}`, {
      terminateAt: inMs(MAX_DEADLINE_MS + 1),
    });
    expect(far.json().error.details.fields.terminateAt).toEqual([
      'terminateAt must be within a year from now',
    ]);
    await v1(key, 'DELETE', `/instances/${id}`);
  });

  it('refuses terminateAt before stopAt with 400 naming the field, on create and against a stored stopAt', async () => {
    const user = await t.signIn({ credits: '50.00' });
    const { key } = await createApiKey(t, user.cookie, ['read', 'write']);
    const listing = await w.listing({ model: 'Deadline GPU J', hourlyRate: '1.20' });
    const stopAt = inMs(90 * MIN);
    const refused = await v1(key, 'POST', '/instances', {
      gpuListingId: listing.id,
      stopAt,
      terminateAt: inMs(30 * MIN),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'terminateAt: terminateAt must not be before stopAt',
      details: { fields: { terminateAt: ['terminateAt must not be before stopAt'] } },
    });
    const created = await v1(key, 'POST', '/instances', { gpuListingId: listing.id, stopAt });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json().instance;
    const sooner = await v1(key, 'PATCH', `/instances/${id}`, { terminateAt: inMs(MIN) });
    expect(sooner.statusCode).toBe(400);
    expect(sooner.json().error.details.fields).toEqual({
      terminateAt: [`terminateAt must not be before stopAt (${stopAt}, already set)`],
    });
    expect((await v1(key, 'GET', `/instances/${id}`)).json().instance).toMatchObject({
      stopAt,
      terminateAt: null,
    });
    // Ended: a change of its times is refused as that, not as a terminate.
    await v1(key, 'DELETE', `/instances/${id}`);
    const ended = await v1(key, 'PATCH', `/instances/${id}`, { stopAt: null });
    expect(ended.statusCode).toBe(409);
    expect(ended.json().error.message).toMatch(
      /^An instance that is (terminating|terminated) cannot change its stop or terminate time\.$/,
    );
  });

  it('refuses deadlines on a booked rental: 400 on create, 409 on PATCH', async () => {
    const user = await t.signIn({ credits: '50.00' });
    const { key } = await createApiKey(t, user.cookie, ['read', 'write']);
    const listing = await w.listing({ model: 'Deadline GPU H', hourlyRate: '1.00' });
    const mixed = await v1(key, 'POST', '/instances', {
      gpuListingId: listing.id,
      durationHours: 2,
      stopAt: inMs(MIN),
    });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json().error.code).toBe('VALIDATION_FAILED');
    const booked = await v1(key, 'POST', '/instances', {
      gpuListingId: listing.id,
      durationHours: 2,
    });
    expect(booked.statusCode).toBe(201);
    const id = booked.json().instance.id;
    const res = await v1(key, 'PATCH', `/instances/${id}`, { stopAt: inMs(MIN) });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('CONFLICT');
    await v1(key, 'DELETE', `/instances/${id}`);
  });
});
