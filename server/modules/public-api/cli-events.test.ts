import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventPage, EventView } from '../../../shared/contracts/events';
import { createTestApp, type TestApp } from '../../test/app';
import { bundleCli, cliTempFolders, REPO_ROOT, removeCliBundle } from '../../test/cli';
import { world } from '../../test/world';

/**
 * `rentgpu events …` and `rentgpu webhooks …` as a real child process (the CLI's sources
 * bundled once by esbuild, as cli.test.ts does) against the app listening on a port: the
 * events of an instance made through the API appear in `events list` and, as they happen,
 * in `events tail`; endpoints are made, listed, rotated and deleted.
 */
const root = REPO_ROOT;
let bin = '';
let t: TestApp;
let apiUrl: string;

beforeAll(async () => {
  bin = await bundleCli();
  t = await createTestApp({
    // Endpoints on loopback are allowed here (a lab), so a made-up local URL passes the rule.
    env: { DEMO_PROVISIONING_DELAY_MS: '20000', ALLOW_PRIVATE_HOST_ADDRESSES: '1' },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  apiUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t.close();
  folders.removeAll();
  removeCliBundle(bin);
});

/** Each CLI run's own config folder (its HOME) and the like, removed after the file's tests. */
const folders = cliTempFolders();

interface Running {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  done: Promise<number | null>;
}

function start(args: string[], key: string): Running {
  const configHome = folders.make();
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: configHome,
      XDG_CONFIG_HOME: configHome,
      RENTGPU_API_URL: apiUrl,
      RENTGPU_API_KEY: key,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  child.stdin.end();
  const done = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code));
  });
  return { child, stdout: () => stdout, stderr: () => stderr, done };
}

async function rentgpu(args: string[], key: string) {
  const r = start(args, key);
  const code = await r.done;
  return { code, stdout: r.stdout(), stderr: r.stderr() };
}

async function until(check: () => boolean, what: string, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const lines = (stdout: string): EventView[] =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as EventView);

async function keyFor(credits: string) {
  const user = await t.signIn({ credits });
  const res = await t.request({
    method: 'POST',
    url: '/api/auth/api-keys',
    cookie: user.cookie,
    payload: { name: 'cli', permissions: ['read', 'write'] },
  });
  return { ...user, key: res.json().key as string };
}

describe('rentgpu events', () => {
  it("list and tail see an instance's events as they happen; tail stops on SIGINT and SIGTERM", async () => {
    const me = await keyFor('50.00');
    const listing = await world(t).listing({ hourlyRate: '1.00' });

    // Following from the end of the log: nothing of the past is printed.
    const tail = start(['events', 'tail', '--json'], me.key);
    await until(() => tail.stderr().includes('Following events'), 'tail to find the end');

    const created = await t.request({
      method: 'POST',
      url: '/api/v1/instances',
      headers: { authorization: `Bearer ${me.key}` },
      payload: { gpuListingId: listing.id },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().instance.id as number;
    const subject = `instance:${id}`;
    const seen = () => lines(tail.stdout());
    await until(() => seen().some((e) => e.type === 'instance.created'), 'instance.created');

    // The demo host reports it ready.
    t.clock.advance(21_000);
    await t.app.deps.worker.runOnce(t.clock.now());
    await until(() => seen().some((e) => e.type === 'instance.ready'), 'instance.ready');

    tail.child.kill('SIGINT');
    expect(await tail.done).toBe(0);
    const followed = seen();
    const last = followed.at(-1)?.id;
    expect(tail.stderr()).toContain(`Stopped after ${last} (go on from there:`);
    // Only what happened after it started: the signed-in user's first credit is not there.
    expect(followed.some((e) => e.type === 'wallet.credited')).toBe(false);
    const mine = followed.filter(
      (e) => e.subject.kind === 'instance' && e.subject.id === String(id),
    );
    expect(mine.map((e) => e.type)).toEqual(['instance.created', 'instance.ready']);
    expect(mine[0]?.data).toMatchObject({ state: 'provisioning' });
    expect(mine[1]?.data).toMatchObject({ state: 'running' });

    // events list: the same events, oldest first, filtered by subject and type.
    const list = await rentgpu(['events', 'list', '--subject', subject, '--json'], me.key);
    expect(list.code, list.stderr).toBe(0);
    const page = JSON.parse(list.stdout) as EventPage;
    expect(page.data.map((e) => e.id)).toEqual(mine.map((e) => e.id));
    expect(page.data[1]?.subject.seq).toBeGreaterThan(page.data[0]?.subject.seq ?? Infinity);
    expect(page.hasMore).toBe(false);
    const wallet = await rentgpu(['events', 'list', '--type', 'wallet.*', '--json'], me.key);
    const credit = (JSON.parse(wallet.stdout) as EventPage).data[0];
    expect(credit?.type).toBe('wallet.credited');
    expect(Number(credit?.data.amount)).toBe(50);
    expect(Number(credit?.data.balance)).toBe(50);
    const two = await rentgpu(['events', 'list', '--limit', '1', '--json'], me.key);
    expect(JSON.parse(two.stdout)).toMatchObject({ hasMore: true });

    // tail --after an event, --once: what came after it, then it exits by itself.
    const again = await rentgpu(
      ['events', 'tail', '--after', mine[0]?.id ?? '', '--subject', subject, '--once', '--json'],
      me.key,
    );
    expect(again.code, again.stderr).toBe(0);
    expect(lines(again.stdout).map((e) => e.type)).toEqual(['instance.ready']);

    // Waiting for one event with a filter: the stop of this instance; SIGTERM also stops one
    // that is still waiting.
    const waiting = start(
      ['events', 'tail', '--type', 'instance.stopped,instance.terminated', '--subject', subject],
      me.key,
    );
    await until(() => waiting.stderr().includes('Following events'), 'the second tail to start');
    waiting.child.kill('SIGTERM');
    expect(await waiting.done).toBe(0);
    expect(waiting.stdout()).toBe('');

    // Another account sees none of it.
    const other = await keyFor('5.00');
    const theirs = await rentgpu(['events', 'list', '--subject', subject, '--json'], other.key);
    expect(JSON.parse(theirs.stdout).data).toEqual([]);
  }, 120_000);
});

describe('rentgpu webhooks', () => {
  it('create (the secret once), list, show, disable, rotate, test, deliveries, delete', async () => {
    const me = await keyFor('10.00');
    const url = 'http://127.0.0.1:9/rentgpu-hook';
    const created = await rentgpu(
      ['webhooks', 'create', url, '--type', 'instance.ready', '--description', 'ci', '--json'],
      me.key,
    );
    expect(created.code, created.stderr).toBe(0);
    const endpoint = JSON.parse(created.stdout);
    expect(endpoint).toMatchObject({ url, types: ['instance.ready'], description: 'ci' });
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect(created.stderr).toContain('The secret is shown only this once');

    const list = await rentgpu(['webhooks', 'list', '--json'], me.key);
    expect(list.code, list.stderr).toBe(0);
    const listed = JSON.parse(list.stdout) as { id: string; secret?: string }[];
    expect(listed.map((e) => e.id)).toEqual([endpoint.id]);
    // The secret is never listed again.
    expect(list.stdout).not.toContain(endpoint.secret);

    const shown = await rentgpu(['webhooks', 'show', endpoint.id, '--json'], me.key);
    expect(JSON.parse(shown.stdout)).toMatchObject({ id: endpoint.id, enabled: true });

    const disabled = await rentgpu(['webhooks', 'disable', endpoint.id, '--json'], me.key);
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(JSON.parse(disabled.stdout)).toMatchObject({ enabled: false });
    const enabled = await rentgpu(['webhooks', 'enable', endpoint.id, '--json'], me.key);
    expect(JSON.parse(enabled.stdout)).toMatchObject({ enabled: true, disabledAt: null });

    const rotated = await rentgpu(['webhooks', 'rotate', endpoint.id, '--json'], me.key);
    expect(rotated.code, rotated.stderr).toBe(0);
    const next = JSON.parse(rotated.stdout);
    expect(next.secret).toMatch(/^whsec_/);
    expect(next.secret).not.toBe(endpoint.secret);
    expect(next.previousSecretUntil).not.toBeNull();

    const test = await rentgpu(['webhooks', 'test', endpoint.id, '--json'], me.key);
    expect(test.code, test.stderr).toBe(0);
    expect(JSON.parse(test.stdout).eventId).toMatch(/^evt_\d+$/);
    const deliveries = await rentgpu(['webhooks', 'deliveries', endpoint.id, '--json'], me.key);
    expect(deliveries.code, deliveries.stderr).toBe(0);
    expect(Array.isArray(JSON.parse(deliveries.stdout))).toBe(true);

    // Another account cannot see or delete it.
    const other = await keyFor('1.00');
    const foreign = await rentgpu(['webhooks', 'delete', endpoint.id], other.key);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toContain('HTTP 404');

    const deleted = await rentgpu(['webhooks', 'delete', endpoint.id, '--json'], me.key);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(JSON.parse(deleted.stdout)).toEqual({ deleted: endpoint.id });
    const empty = await rentgpu(['webhooks', 'list', '--json'], me.key);
    expect(JSON.parse(empty.stdout)).toEqual([]);
    const gone = await rentgpu(['webhooks', 'show', endpoint.id], me.key);
    expect(gone.code).toBe(1);
  }, 120_000);
});
