import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CLOSE } from '../../../../shared/contracts/console';
import type { Database } from '../../../db/client';
import { instances } from '../../../db/schema';
import { testRedisUrl } from '../../../env';
import { CONSOLE_LEASE } from '../../../lib/leased-slots';
import { generateSshKeyPair } from '../../../lib/ssh-keypair';
import { createTestApp, type TestApp } from '../../../test/app';
import { consoleInstance } from '../../../test/console';
import { openTestDatabase } from '../../../test/database';
import { type Dropbear, dropbearUsable, startDropbear } from '../../../test/dropbear';
import { type ConsoleClient, openConsoleSocket } from '../../../test/ws-client';
import { HOST_KEY_CHANGED } from './closing';
import { MAX_CONSOLES_PER_USER, tooManyConsolesMessage } from './guards';
import { createConsoleSlots } from './slots';

/**
 * The web console with several server processes on one database (docs/architecture.md, "Web
 * console"): each "process" is a test app of its own (its own memory, its own clock)
 * listening on a port, all on one database, and on one Redis when TEST_REDIS_URL is set.
 * SSH answers from dropbear on 127.0.0.1, as in console.test.ts.
 */

interface Server {
  t: TestApp;
  /** The console's URL of an instance on this server. */
  url(id: number): string;
  origin: string;
}

async function serve(t: TestApp): Promise<Server> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return {
    t,
    url: (id) => `ws://127.0.0.1:${port}/api/kvm/instances/${id}/console`,
    origin: `http://127.0.0.1:${port}`,
  };
}

/** The plain GET's answer on `on`: 200 when the user may open one more console. */
async function ask(on: Server, vm: { id: number; cookie: string }) {
  const res = await on.t.request({
    method: 'GET',
    url: `/api/kvm/instances/${vm.id}/console`,
    cookie: vm.cookie,
  });
  return res.statusCode;
}

/** Opens a console on `on` and waits for its shell; else the refusal (HTTP status or close code). */
async function tryConsole(
  on: Server,
  vm: { id: number; cookie: string },
  tag: string,
): Promise<ConsoleClient | number> {
  let term: ConsoleClient;
  try {
    term = await openConsoleSocket(on.url(vm.id), { cookie: vm.cookie, origin: on.origin });
  } catch (error) {
    return (error as { status: number }).status;
  }
  term.type(`echo ${tag}-$((20+1))\r`);
  return Promise.race([
    term.waitFor(`${tag}-21`).then(() => term),
    term.closed.then((closed) => {
      expect(closed.reason).toBe(tooManyConsolesMessage(MAX_CONSOLES_PER_USER));
      return closed.code;
    }),
  ]);
}

async function closeAll(terms: ConsoleClient[]) {
  for (const term of terms) term.socket.close(1000, 'Closed by the user.');
  await Promise.all(terms.map((term) => term.closed));
}

/** dropbear is on loopback: a lab, as the operator would have to say. */
const LAB = { ALLOW_PRIVATE_HOST_ADDRESSES: '1' };

const stores = [
  { store: 'the database', env: { ...LAB } as Record<string, string> },
  ...(testRedisUrl() ? [{ store: 'Redis', env: { ...LAB, REDIS_URL: testRedisUrl() ?? '' } }] : []),
];

describe.skipIf(!dropbearUsable())('web console across server processes', () => {
  let sshd: Dropbear;
  const key = generateSshKeyPair();
  const ssh = () => ({ port: sshd.port, username: sshd.username, key });

  beforeAll(async () => {
    sshd = await startDropbear(key.publicKey);
  });
  afterAll(async () => {
    await sshd?.stop();
  });

  describe.each(stores)('places per user counted in $store', ({ env }) => {
    let database: Database;
    let a: Server;
    let b: Server;

    beforeAll(async () => {
      database = await openTestDatabase();
      a = await serve(await createTestApp({ env, database }));
      b = await serve(await createTestApp({ env, database }));
    });
    afterAll(async () => {
      await a?.t.close();
      await b?.t.close();
      await database?.close();
    });

    it(`a user has at most ${MAX_CONSOLES_PER_USER} consoles open across both processes; a place frees when one closes`, async () => {
      const vm = await consoleInstance(a.t, ssh(), 'running');
      const open: ConsoleClient[] = [];
      for (let i = 0; i < MAX_CONSOLES_PER_USER; i += 1) {
        const term = await tryConsole(i % 2 ? b : a, vm, `tab-${i}`);
        if (typeof term === 'number') throw new Error(`console ${i} refused with ${term}`);
        open.push(term);
      }
      // The fifth is refused on either process, with today's reason.
      for (const on of [a, b]) {
        const res = await on.t.request({
          method: 'GET',
          url: `/api/kvm/instances/${vm.id}/console`,
          cookie: vm.cookie,
        });
        expect(res.statusCode).toBe(429);
        expect(res.json().error).toMatchObject({
          code: 'RATE_LIMITED',
          message: tooManyConsolesMessage(MAX_CONSOLES_PER_USER),
        });
        expect(await tryConsole(on, vm, 'fifth')).toBe(429);
      }

      // A tab open on A closes: B may open one.
      open.shift()?.socket.close(1000, 'Closed by the user.');
      await expect.poll(() => ask(b, vm), { timeout: 5000 }).toBe(200);
      const fifth = await tryConsole(b, vm, 'fifth');
      if (typeof fifth === 'number') throw new Error(`the fifth was refused with ${fifth}`);
      expect(await ask(a, vm)).toBe(429);
      await closeAll([...open, fifth]);
      await expect.poll(() => ask(a, vm), { timeout: 5000 }).toBe(200);
    });

    it(`upgrades racing on both processes open exactly ${MAX_CONSOLES_PER_USER}`, async () => {
      const vm = await consoleInstance(a.t, ssh(), 'running');
      const outcomes = await Promise.all(
        Array.from({ length: MAX_CONSOLES_PER_USER + 3 }, (_, i) =>
          tryConsole(i % 2 ? b : a, vm, `race-${i}`),
        ),
      );
      const opened = outcomes.filter((o): o is ConsoleClient => typeof o !== 'number');
      expect(opened).toHaveLength(MAX_CONSOLES_PER_USER);
      // The others: refused before the upgrade (429) or, past the check, closed at once (4429).
      for (const o of outcomes) {
        if (typeof o === 'number') expect([429, CONSOLE_CLOSE.tooManySessions]).toContain(o);
      }
      await closeAll(opened);
    });

    it("a dead process's places free themselves once its leases expire", async () => {
      const vm = await consoleInstance(a.t, ssh(), 'running');
      // A third process takes the user's places, then dies: it neither renews nor gives back.
      const dead = createConsoleSlots({
        db: database.db,
        clock: a.t.clock,
        redisUrl: env.REDIS_URL,
      });
      for (let i = 0; i < MAX_CONSOLES_PER_USER; i += 1) {
        expect(await dead.acquire(vm.userId)).not.toBeNull();
      }
      expect(await dead.acquire(vm.userId)).toBeNull();
      await dead.close();
      expect(await ask(a, vm)).toBe(429);
      expect(await ask(b, vm)).toBe(429);

      // Its leases run out (no renewal): the places are free on both processes.
      a.t.clock.advance(CONSOLE_LEASE.leaseMs);
      b.t.clock.advance(CONSOLE_LEASE.leaseMs);
      expect(await ask(a, vm)).toBe(200);
      expect(await ask(b, vm)).toBe(200);
      const opened: ConsoleClient[] = [];
      for (let i = 0; i < MAX_CONSOLES_PER_USER; i += 1) {
        const term = await tryConsole(i % 2 ? a : b, vm, `after-${i}`);
        if (typeof term === 'number') throw new Error(`console ${i} refused with ${term}`);
        opened.push(term);
      }
      expect(await tryConsole(a, vm, 'one-more')).toBe(429);
      await closeAll(opened);
    });
  });

  describe('the host key pin, stored on the instance', () => {
    let database: Database;
    const servers: Server[] = [];
    const start = async () => {
      const server = await serve(await createTestApp({ env: LAB, database }));
      servers.push(server);
      return server;
    };

    beforeAll(async () => {
      database = await openTestDatabase();
    });
    afterAll(async () => {
      for (const server of servers) await server.t.close();
      await database?.close();
    });

    it('holds on every process and survives a restart; another key is refused on each', async () => {
      const a = await start();
      const b = await start();
      const vm = await consoleInstance(a.t, ssh(), 'running');
      const first = await tryConsole(a, vm, 'first');
      if (typeof first === 'number') throw new Error(`refused with ${first}`);
      await closeAll([first]);
      const [type, base64] = sshd.hostPublicKey.split(' ');
      const stored = async () =>
        (await database.db.select().from(instances).where(eq(instances.id, vm.id)))[0]?.sshHostKey;
      expect(await stored()).toBe(`${type} ${base64}`);

      // A restarts (a new process: nothing in memory); B and the new A accept the same key.
      await a.t.close();
      servers.splice(servers.indexOf(a), 1);
      const restarted = await start();
      for (const on of [b, restarted]) {
        const term = await tryConsole(on, vm, 'same-key');
        if (typeof term === 'number') throw new Error(`refused with ${term}`);
        await closeAll([term]);
      }

      // Something else answers on the instance's address with another key: both refuse it.
      const impostor = await startDropbear(key.publicKey);
      try {
        await database.db
          .update(instances)
          .set({ sshPort: impostor.port })
          .where(eq(instances.id, vm.id));
        for (const on of [b, restarted]) {
          const term = await openConsoleSocket(on.url(vm.id), {
            cookie: vm.cookie,
            origin: on.origin,
          });
          expect(await term.closed).toEqual({
            code: CONSOLE_CLOSE.sshFailed,
            reason: HOST_KEY_CHANGED,
          });
        }
        expect(impostor.connections()).toBe(0);
        expect(await stored()).toBe(`${type} ${base64}`);
      } finally {
        await impostor.stop();
      }
      // Three app starts, three consoles over SSH and a dropbear of its own, whose start alone
      // may wait up to a minute on a loaded machine (server/test/dropbear.ts): the API tests'
      // 30 s ran out once in CI while the VM lane booted guests beside it.
    }, 120_000);
  });
});
