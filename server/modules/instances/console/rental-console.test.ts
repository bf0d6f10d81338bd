import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { instances } from '../../../db/schema';
import { createHost } from '../../../seed/factories';
import { createTestApp, type TestApp } from '../../../test/app';
import { type Dropbear, dropbearUsable, startDropbear } from '../../../test/dropbear';
import { world } from '../../../test/world';
import { openConsoleSocket } from '../../../test/ws-client';

/**
 * The web console of a booked rental (docs/architecture.md, "Web console"): a rental rented
 * as the marketplace's rent dialog does (POST /api/rentals) gets the platform's console key
 * at creation, as a VM does, and the same console route opens it for its renter only, only
 * while it runs. The rental's host is played by a real SSH server (dropbear on 127.0.0.1)
 * that lets in the key the server made for this rental; its readiness reaches the server
 * the one way a host's does (`applyHostReport`).
 */
// Each test's limit: a rent, a real SSH server and a console session; in CI on 2026-11-30,
// beside the real guest's two emulated VMs, the first test ran past the API project's 30 s.
describe.skipIf(!dropbearUsable())('web console of a booked rental', { timeout: 90_000 }, () => {
  let t: TestApp;
  let w: ReturnType<typeof world>;
  let base: string;
  let origin: string;
  const servers: Dropbear[] = [];

  beforeAll(async () => {
    // The SSH server is on loopback: a lab, as the operator would have to say.
    t = await createTestApp({ env: { ALLOW_PRIVATE_HOST_ADDRESSES: '1' } });
    w = world(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    origin = `http://127.0.0.1:${port}`;
    base = `ws://127.0.0.1:${port}`;
  });
  afterEach(async () => {
    expect(await w.invariants()).toEqual([]);
  });
  afterAll(async () => {
    await t?.close();
    for (const sshd of servers) await sshd.stop();
  });

  /** The rental's row as stored. */
  async function stored(id: number) {
    const [row] = await t.database.db.select().from(instances).where(eq(instances.id, id));
    if (!row) throw new Error('no instance');
    return row;
  }

  /**
   * A renter's booked rental on a provider's own host (not the demo host), rented through
   * POST /api/rentals and made ready by its host's report at the address of a dropbear that
   * lets in the console key the server made for it.
   */
  async function runningRental() {
    const renter = await t.signIn({ credits: '100.00' });
    const owner = await w.provider();
    const host = await createHost(t.database.db, {
      providerId: owner.providerId,
      lastHeartbeatAt: t.clock.now(),
    });
    const listing = await w.listing({
      hourlyRate: '2.00',
      providerId: owner.providerId,
      hostId: host.id,
    });
    const rented = await w.rentAs(renter.cookie, listing, 3);
    expect(rented.statusCode).toBe(201);
    const { id } = rented.json() as { id: number };
    const row = await stored(id);
    expect(row.billingPlan).toBe('booked');
    expect(row.platformSshPublicKey).toMatch(/^ssh-ed25519 AAAA\S+ rentgpu-web-console$/);
    const sshd = await startDropbear(row.platformSshPublicKey ?? '');
    servers.push(sshd);
    const answer = await t.app.deps.instances.applyHostReport(
      {
        instanceId: id,
        generation: row.generation,
        state: 'running',
        connection: { sshHost: '127.0.0.1', sshPort: sshd.port, sshUsername: sshd.username },
      },
      t.clock.now(),
    );
    expect(answer.accepted).toBe(true);
    return {
      renter,
      owner,
      id,
      sshd,
      path: `/api/kvm/instances/${id}/console`,
      url: `${base}/api/kvm/instances/${id}/console`,
    };
  }

  const rentalsOf = async (renter: { userId: string; cookie: string }) =>
    (
      await t.request({
        method: 'GET',
        url: `/api/rentals/user/${renter.userId}`,
        cookie: renter.cookie,
      })
    ).json() as { id: number; webConsole: string | null }[];

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => 'opened',
      (error: { status?: number }) => error.status,
    );

  it("its renter gets a console session on the rental's machine, and the rental names its page", async () => {
    const rental = await runningRental();
    const listed = (await rentalsOf(rental.renter)).find((r) => r.id === rental.id);
    expect(listed?.webConsole).toBe(`/vm-dashboard/console/${rental.id}`);
    // The provider's list of its instances names no console: it is the renter's alone.
    const provided = await t.request({
      method: 'GET',
      url: `/api/rentals/provider/${rental.owner.providerId}`,
      cookie: rental.owner.cookie,
    });
    expect(provided.json().find((r: { id: number }) => r.id === rental.id)?.webConsole).toBeNull();

    const status = await t.request({
      method: 'GET',
      url: rental.path,
      cookie: rental.renter.cookie,
    });
    expect(status.statusCode).toBe(200);
    expect(status.json()).toEqual({
      instanceId: rental.id,
      status: 'running',
      sshUsername: rental.sshd.username,
    });

    const term = await openConsoleSocket(`${rental.url}?cols=90&rows=25`, {
      cookie: rental.renter.cookie,
      origin,
    });
    term.type('echo rental-$((6*7))\r');
    await term.waitFor('rental-42');
    expect(term.controls).toContainEqual({ type: 'ready' });
    term.type('exit\r');
    await term.closed;
  });

  it("another user's rental is not found, signed out is 401", async () => {
    const rental = await runningRental();
    const other = await t.signIn({ credits: '100.00' });
    const res = await t.request({ method: 'GET', url: rental.path, cookie: other.cookie });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toEqual({
      code: 'NOT_FOUND',
      message: 'Instance not found.',
      details: {},
    });
    expect(await refusal(openConsoleSocket(rental.url, { cookie: other.cookie, origin }))).toBe(
      404,
    );
    expect((await t.request({ method: 'GET', url: rental.path })).statusCode).toBe(401);
    expect(await refusal(openConsoleSocket(rental.url, { origin }))).toBe(401);
  });

  it('an ended rental is refused with the reason, and names no console page', async () => {
    const rental = await runningRental();
    const stopped = await t.request({
      method: 'PATCH',
      url: `/api/rentals/${rental.id}/stop`,
      cookie: rental.renter.cookie,
    });
    expect(stopped.statusCode).toBe(200);
    const state = (await stored(rental.id)).status;
    expect(['terminating', 'terminated']).toContain(state);

    const res = await t.request({ method: 'GET', url: rental.path, cookie: rental.renter.cookie });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toEqual({
      code: 'CONFLICT',
      message: `The instance is ${state}, not running.`,
      details: { state },
    });
    expect(
      await refusal(openConsoleSocket(rental.url, { cookie: rental.renter.cookie, origin })),
    ).toBe(409);
    const listed = (await rentalsOf(rental.renter)).find((r) => r.id === rental.id);
    expect(listed?.webConsole).toBeNull();
  });
});
