import net, { type AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CLOSE } from '../../../../shared/contracts/console';
import { instances, sessions } from '../../../db/schema';
import { generateSshKeyPair } from '../../../lib/ssh-keypair';
import { createTestApp, type TestApp } from '../../../test/app';
import { consoleInstance } from '../../../test/console';
import { type Dropbear, dropbearUsable, startDropbear } from '../../../test/dropbear';
import { type ConsoleClient, openConsoleSocket } from '../../../test/ws-client';
import { CONSOLE_KEY_REFUSED, CONSOLE_UNREACHABLE, HOST_KEY_CHANGED } from './closing';
import { hostKeyFingerprint, MAX_CONSOLES_PER_USER, tooManyConsolesMessage } from './guards';

/**
 * The web console against a real SSH server: dropbear on 127.0.0.1 lets in the instance's
 * platform key as the user running the tests; the app listens on a port and a WebSocket
 * client (the `ws` library) plays the browser.
 */
describe.skipIf(!dropbearUsable())('web console (WebSocket → SSH)', () => {
  let t: TestApp;
  let sshd: Dropbear;
  let base: string;
  let origin: string;
  const key = generateSshKeyPair();

  beforeAll(async () => {
    sshd = await startDropbear(key.publicKey);
    // The SSH server is on loopback: a lab, as the operator would have to say.
    // The console's status check every 200 ms (5 s in production): a close it causes comes soon.
    t = await createTestApp({
      env: { ALLOW_PRIVATE_HOST_ADDRESSES: '1', CONSOLE_STATUS_POLL_MS: '200' },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    origin = `http://127.0.0.1:${port}`;
    base = `ws://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await t?.close();
    await sshd?.stop();
  });

  /** A user with an instance in `status` whose SSH address is the test's dropbear. */
  async function instanceOf(
    status: 'running' | 'stopped',
    options: {
      privateKey?: string | null;
      port?: number | null;
      /** The guest's host key its host reported (instances.ssh_host_key). */
      hostKey?: string;
      /** Another app (another configuration) listening at `base`. */
      on?: { app: TestApp; base: string };
    } = {},
  ) {
    const { on, ...rest } = options;
    const ssh = { port: sshd.port, username: sshd.username, key };
    const vm = await consoleInstance(on?.app ?? t, ssh, status, rest);
    const at = on?.base ?? base;
    return { ...vm, url: `${at}/api/kvm/instances/${vm.id}/console` };
  }

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => 'opened',
      (error: { status?: number }) => error.status,
    );

  it('runs a command on the instance and shows its output', async () => {
    const vm = await instanceOf('running');
    const term = await openConsoleSocket(`${vm.url}?cols=100&rows=30`, {
      cookie: vm.cookie,
      origin,
    });
    // Typed before the shell is ready: kept and delivered once it is.
    term.type('echo console-$((40+2))\r');
    await term.waitFor('console-42');
    expect(term.controls).toContainEqual({ type: 'ready' });

    // The pty has the size the browser asked for, and follows a resize.
    term.type('stty size\r');
    await term.waitFor('30 100');
    term.socket.send(JSON.stringify({ type: 'resize', cols: 132, rows: 40 }));
    term.type('stty size\r');
    await term.waitFor('40 132');

    term.type('exit\r');
    expect(await term.closed).toEqual({
      code: CONSOLE_CLOSE.ended,
      reason: 'The shell session ended.',
    });
  });

  it('the plain GET says whether the console can open', async () => {
    const vm = await instanceOf('running');
    const res = await t.request({
      method: 'GET',
      url: `/api/kvm/instances/${vm.id}/console`,
      cookie: vm.cookie,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      instanceId: vm.id,
      status: 'running',
      sshUsername: sshd.username,
    });
  });

  it("only the owner may open it: another user's instance is not found, signed out is 401", async () => {
    const vm = await instanceOf('running');
    const other = await t.signIn();
    expect(await refusal(openConsoleSocket(vm.url, { cookie: other.cookie, origin }))).toBe(404);
    expect(await refusal(openConsoleSocket(vm.url, { origin }))).toBe(401);
    const res = await t.request({
      method: 'GET',
      url: `/api/kvm/instances/${vm.id}/console`,
      cookie: other.cookie,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toEqual({
      code: 'NOT_FOUND',
      message: 'Instance not found.',
      details: {},
    });
  });

  it('a WebSocket opened by another site is refused before it opens', async () => {
    const vm = await instanceOf('running');
    expect(
      await refusal(
        openConsoleSocket(vm.url, { cookie: vm.cookie, origin: 'https://evil.example' }),
      ),
    ).toBe(403);
    expect(
      await refusal(
        openConsoleSocket(vm.url, { cookie: vm.cookie, origin, 'sec-fetch-site': 'cross-site' }),
      ),
    ).toBe(403);
    // The same host and port under https is another origin than this http site.
    const https = origin.replace(/^http:/, 'https:');
    expect(await refusal(openConsoleSocket(vm.url, { cookie: vm.cookie, origin: https }))).toBe(
      403,
    );
  });

  it('an instance that is not running, or has no console key, is refused with the reason', async () => {
    const stopped = await instanceOf('stopped', { port: null });
    expect(await refusal(openConsoleSocket(stopped.url, { cookie: stopped.cookie, origin }))).toBe(
      409,
    );
    const res = await t.request({
      method: 'GET',
      url: `/api/kvm/instances/${stopped.id}/console`,
      cookie: stopped.cookie,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toEqual({
      code: 'CONFLICT',
      message: 'The instance is stopped, not running.',
      details: { state: 'stopped' },
    });

    const keyless = await instanceOf('running', { privateKey: null });
    const keylessRes = await t.request({
      method: 'GET',
      url: `/api/kvm/instances/${keyless.id}/console`,
      cookie: keyless.cookie,
    });
    expect(keylessRes.statusCode).toBe(409);
    expect(keylessRes.json().error.message).toBe(
      'This instance has no web console key; connect over SSH instead.',
    );
  });

  it('bad sizes are a 400 before anything opens', async () => {
    const vm = await instanceOf('running');
    const res = await t.request({
      method: 'GET',
      url: `/api/kvm/instances/${vm.id}/console?cols=5`,
      cookie: vm.cookie,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.fields).toEqual({ cols: ['At least 10 columns'] });
  });

  it('closes when the instance leaves running', async () => {
    const vm = await instanceOf('running');
    const term = await openConsoleSocket(vm.url, { cookie: vm.cookie, origin });
    term.type('echo up-$((1+1))\r');
    await term.waitFor('up-2');
    await t.database.db
      .update(instances)
      .set({ status: 'stopping' })
      .where(eq(instances.id, vm.id));
    expect(await term.closed).toEqual({
      code: CONSOLE_CLOSE.notRunning,
      reason: 'The instance is stopping.',
    });
  });

  it('an instance whose shutdown drops SSH before the next check is reported as stopping', async () => {
    const vm = await instanceOf('running');
    const term = await openConsoleSocket(vm.url, { cookie: vm.cookie, origin });
    term.type('echo down-$((4+4))\r');
    await term.waitFor('down-8');
    await t.database.db
      .update(instances)
      .set({ status: 'stopping' })
      .where(eq(instances.id, vm.id));
    // The SSH server's session process dies: the connection drops long before the next check.
    term.type('kill -KILL $PPID\r');
    expect(await term.closed).toEqual({
      code: CONSOLE_CLOSE.notRunning,
      reason: 'The instance is stopping.',
    });
  });

  it('closing the page ends the SSH session', async () => {
    const vm = await instanceOf('running');
    const before = sshd.connections();
    const term = await openConsoleSocket(vm.url, { cookie: vm.cookie, origin });
    term.type('echo open-$((2+2))\r');
    await term.waitFor('open-4');
    expect(sshd.connections()).toBe(before + 1);
    term.socket.close(1000, 'Closed by the user.');
    await expect.poll(() => sshd.connections(), { timeout: 5000 }).toBe(before);
  });

  it('closes when the session ends (signed out elsewhere)', async () => {
    const vm = await instanceOf('running');
    const term = await openConsoleSocket(vm.url, { cookie: vm.cookie, origin });
    term.type('echo in-$((3+3))\r');
    await term.waitFor('in-6');
    await t.database.db.delete(sessions).where(eq(sessions.userId, vm.userId));
    expect(await term.closed).toEqual({
      code: CONSOLE_CLOSE.signedOut,
      reason: 'Your session ended. Sign in again.',
    });
  });

  it('closes with the reason when SSH refuses the key', async () => {
    const wrong = generateSshKeyPair();
    const vm = await instanceOf('running', { privateKey: wrong.privateKey });
    const term = await openConsoleSocket(vm.url, { cookie: vm.cookie, origin });
    const { code, reason } = await term.closed;
    expect(code).toBe(CONSOLE_CLOSE.sshFailed);
    expect(reason).toBe(CONSOLE_KEY_REFUSED);
  });

  it("pins the instance's SSH host key on first use, on the instance: another key in the same run is refused", async () => {
    const vm = await instanceOf('running');
    const first = await openConsoleSocket(vm.url, { cookie: vm.cookie, origin });
    first.type('echo pinned-$((5+5))\r');
    await first.waitFor('pinned-10');
    first.socket.close(1000, 'Closed by the user.');
    await first.closed;
    // Stored on the instance, as a reported key is (and shown to the renter the same way).
    const [type, base64] = sshd.hostPublicKey.split(' ');
    const [pinned] = await t.database.db.select().from(instances).where(eq(instances.id, vm.id));
    expect(pinned?.sshHostKey).toBe(`${type} ${base64}`);
    expect(pinned?.sshHostKeyFingerprint).toBe(
      hostKeyFingerprint(Buffer.from(base64 ?? '', 'base64')),
    );

    // Something else answers on the instance's address with another host key.
    const impostor = await startDropbear(key.publicKey);
    try {
      await t.database.db
        .update(instances)
        .set({ sshPort: impostor.port })
        .where(eq(instances.id, vm.id));
      const refused = await openConsoleSocket(vm.url, { cookie: vm.cookie, origin });
      expect(await refused.closed).toEqual({
        code: CONSOLE_CLOSE.sshFailed,
        reason: HOST_KEY_CHANGED,
      });
      // Dropped at the key: no session stays open there (its child process may take a moment
      // to exit after the server hangs up, as for the sessions above).
      await expect.poll(() => impostor.connections(), { timeout: 5000 }).toBe(0);

      // A new run of the instance (stopped and started: the key is cleared when it starts,
      // repo.ts `transition`, and the host reported none with its readiness) pins anew.
      await t.database.db
        .update(instances)
        .set({
          generation: (pinned?.generation ?? 0) + 2,
          sshHostKey: null,
          sshHostKeyFingerprint: null,
        })
        .where(eq(instances.id, vm.id));
      const again = await openConsoleSocket(vm.url, { cookie: vm.cookie, origin });
      again.type('echo repinned-$((6+6))\r');
      await again.waitFor('repinned-12');
      again.socket.close(1000, 'Closed by the user.');
      await again.closed;
      const [repinned] = await t.database.db
        .select()
        .from(instances)
        .where(eq(instances.id, vm.id));
      expect(repinned?.sshHostKey).toBe(impostor.hostPublicKey.split(' ').slice(0, 2).join(' '));
    } finally {
      await impostor.stop();
    }
  });

  it('a console of a run that is over pins nothing', async () => {
    const vm = await instanceOf('running');
    const [row] = await t.database.db.select().from(instances).where(eq(instances.id, vm.id));
    const stale = { instanceId: vm.id, generation: (row?.generation ?? 0) - 1 };
    const line = generateSshKeyPair().publicKey.split(' ').slice(0, 2).join(' ');
    const fingerprint = hostKeyFingerprint(Buffer.from(line.split(' ')[1] ?? '', 'base64'));
    expect(await t.app.deps.instances.pinConsoleHostKey(stale, { line, fingerprint })).toBeNull();
    const [after] = await t.database.db.select().from(instances).where(eq(instances.id, vm.id));
    expect(after?.sshHostKey).toBeNull();
  });

  it('accepts only the host key its host reported, when there is one (docs/decisions/015)', async () => {
    const [type, base64] = sshd.hostPublicKey.split(' ');
    const stored = await instanceOf('running', { hostKey: `${type} ${base64}` });
    const ok = await openConsoleSocket(stored.url, { cookie: stored.cookie, origin });
    ok.type('echo stored-$((4+4))\r');
    await ok.waitFor('stored-8');
    ok.socket.close(1000, 'Closed by the user.');
    await ok.closed;

    // The guest answers with a key other than the one its host reported: refused.
    const other = generateSshKeyPair().publicKey.split(' ').slice(0, 2).join(' ');
    const mismatch = await instanceOf('running', { hostKey: other });
    const refused = await openConsoleSocket(mismatch.url, { cookie: mismatch.cookie, origin });
    expect(await refused.closed).toEqual({
      code: CONSOLE_CLOSE.sshFailed,
      reason: HOST_KEY_CHANGED,
    });
  });

  it(`a user has at most ${MAX_CONSOLES_PER_USER} consoles open; one more is refused with the reason until one closes`, async () => {
    const vm = await instanceOf('running');
    const open: ConsoleClient[] = [];
    for (let i = 0; i < MAX_CONSOLES_PER_USER; i += 1) {
      const term = await openConsoleSocket(vm.url, { cookie: vm.cookie, origin });
      term.type(`echo tab-${i}-$((7*6))\r`);
      await term.waitFor(`tab-${i}-42`);
      open.push(term);
    }
    const ask = () =>
      t.request({ method: 'GET', url: `/api/kvm/instances/${vm.id}/console`, cookie: vm.cookie });
    const res = await ask();
    expect(res.statusCode).toBe(429);
    expect(res.json().error).toMatchObject({
      code: 'RATE_LIMITED',
      message: tooManyConsolesMessage(MAX_CONSOLES_PER_USER),
    });
    expect(await refusal(openConsoleSocket(vm.url, { cookie: vm.cookie, origin }))).toBe(429);

    // The person closes a tab: a place is free again.
    open.pop()?.socket.close(1000, 'Closed by the user.');
    await expect.poll(async () => (await ask()).statusCode, { timeout: 5000 }).toBe(200);
    const fifth = await openConsoleSocket(vm.url, { cookie: vm.cookie, origin });
    fifth.type('echo fifth-$((2+3))\r');
    await fifth.waitFor('fifth-5');

    // Another user (with an instance of their own) is not affected.
    const other = await instanceOf('running');
    const theirs = await openConsoleSocket(other.url, { cookie: other.cookie, origin });
    theirs.type('echo theirs-$((1+2))\r');
    await theirs.waitFor('theirs-3');
    theirs.socket.close(1000, 'Closed by the user.');
    await theirs.closed;
    for (const term of [...open, fifth]) term.socket.close(1000, 'Closed by the user.');
    await Promise.all([...open, fifth].map((term) => term.closed));
  });

  it('closes on an unreadable control message', async () => {
    const vm = await instanceOf('running');
    const term = await openConsoleSocket(vm.url, { cookie: vm.cookie, origin });
    term.socket.send(JSON.stringify({ type: 'resize', cols: 'wide' }));
    expect(await term.closed).toEqual({
      code: CONSOLE_CLOSE.badMessage,
      reason: 'Unreadable control message.',
    });
  });

  it('never connects to loopback unless the operator allows it (off by default, in tests too); the person reads a generic reason', async () => {
    // What answers on the address: counts every connection made to it.
    let reached = 0;
    const listener = net.createServer((socket) => {
      reached += 1;
      socket.destroy();
    });
    await new Promise<void>((done) => listener.listen(0, '127.0.0.1', done));
    const strict = await createTestApp();
    try {
      await strict.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = strict.app.server.address() as AddressInfo;
      const vm = await instanceOf('running', {
        port: (listener.address() as AddressInfo).port,
        on: { app: strict, base: `ws://127.0.0.1:${port}` },
      });
      const term = await openConsoleSocket(vm.url, {
        cookie: vm.cookie,
        origin: `http://127.0.0.1:${port}`,
      });
      expect(await term.closed).toEqual({
        code: CONSOLE_CLOSE.sshFailed,
        reason: CONSOLE_UNREACHABLE,
      });
      expect(reached).toBe(0);
    } finally {
      await strict.close();
      listener.close();
    }
  });

  it('tells the person a generic reason when nothing answers, not what the socket said', async () => {
    const closed = net.createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const { port } = closed.address() as AddressInfo;
    await new Promise((done) => closed.close(done));
    const vm = await instanceOf('running', { port });
    const term = await openConsoleSocket(vm.url, { cookie: vm.cookie, origin });
    expect(await term.closed).toEqual({
      code: CONSOLE_CLOSE.sshFailed,
      reason: CONSOLE_UNREACHABLE,
    });
  });
});
