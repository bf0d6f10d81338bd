import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instances } from '../../db/schema';
import { generateSshKeyPair } from '../../lib/ssh-keypair';
import { createTestApp, type TestApp } from '../../test/app';
import { consoleInstance } from '../../test/console';
import { type Dropbear, dropbearUsable, startDropbear } from '../../test/dropbear';
import { openConsoleSocket } from '../../test/ws-client';

/**
 * Idle stop and the web console (issue 23, part 7; docs/decisions/019): while a console is
 * open on an instance, idle stop does not fire however long its GPUs are quiet; once it
 * closes, the idle count starts and the stop follows. A real console (dropbear on
 * 127.0.0.1) under the manual clock; PGlite, and PostgreSQL with TEST_DATABASE_URL.
 */
describe.skipIf(!dropbearUsable())('idle stop waits while a web console is open', () => {
  const key = generateSshKeyPair();
  let app: TestApp;
  let sshd: Dropbear;
  let at: { origin: string; ws: string };

  beforeAll(async () => {
    [sshd, app] = await Promise.all([
      startDropbear(key.publicKey),
      // dropbear is on loopback: a lab, as the operator would have to say.
      createTestApp({ env: { ALLOW_PRIVATE_HOST_ADDRESSES: '1', CONSOLE_STATUS_POLL_MS: '200' } }),
    ]);
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.app.server.address() as AddressInfo;
    at = { origin: `http://127.0.0.1:${port}`, ws: `ws://127.0.0.1:${port}` };
  });
  afterAll(async () => {
    await app?.close();
    await sshd?.stop();
  });

  const MIN = 60_000;
  const tick = () => app.app.deps.worker.runOnce(app.clock.now());
  async function row(id: number) {
    const [found] = await app.database.db.select().from(instances).where(eq(instances.id, id));
    if (!found) throw new Error('instance gone');
    return found;
  }

  it('no stop while a console is open; after it closes, warned and stopped', async () => {
    const ssh = { port: sshd.port, username: sshd.username, key };
    const vm = await consoleInstance(app, ssh, 'running');
    // Idle stop after 15 minutes; its host sends no readings here (the console is the test),
    // and its minutes are paid ahead (this user has no credits; billing is not the test).
    const now = app.clock.now();
    await app.database.db
      .update(instances)
      .set({
        idleStopMinutes: 15,
        lastActiveAt: now,
        paidThrough: new Date(now.getTime() + 24 * 60 * MIN),
      })
      .where(eq(instances.id, vm.id));

    const term = await openConsoleSocket(`${at.ws}/api/kvm/instances/${vm.id}/console`, {
      cookie: vm.cookie,
      origin: at.origin,
    });
    // 40 quiet minutes with the console open: each time the console's status check (every
    // 5 s; 200 ms here) has seen the new time, the worker finds nothing to warn about or stop.
    for (let i = 0; i < 4; i += 1) {
      app.clock.advance(10 * MIN);
      const now = app.clock.now().getTime();
      await expect
        .poll(async () => (await row(vm.id)).lastActiveAt?.getTime(), { timeout: 8000 })
        .toBe(now);
      await tick();
      expect(await row(vm.id)).toMatchObject({ status: 'running', idleWarnedAt: null });
    }

    term.socket.close(1000, 'Closed by the user.');
    await term.closed;
    // Closed: 5 quiet minutes warn (10 before the stop), 10 more stop it.
    app.clock.advance(5 * MIN);
    await tick();
    expect((await row(vm.id)).idleWarnedAt).toEqual(app.clock.now());
    app.clock.advance(9 * MIN);
    await tick();
    expect((await row(vm.id)).status).toBe('running');
    app.clock.advance(MIN);
    await tick();
    expect(await row(vm.id)).toMatchObject({ status: 'stopped', endReason: 'idle_stop' });
  }, 60_000);
});
