import { eq } from 'drizzle-orm';
import { instances } from '../db/schema';
import type { TestApp } from './app';
import { world } from './world';

/** Where a test's console instances answer SSH: a dropbear that lets in `key`. */
export interface ConsoleSsh {
  port: number;
  username: string;
  key: { publicKey: string; privateKey: string };
}

/**
 * A signed-in user's metered instance in `status` whose SSH address is the test's SSH server
 * (console.test.ts, console-processes.test.ts). The previous live instance on that address
 * is ended first (one live instance per SSH address: a unique index).
 */
export async function consoleInstance(
  app: TestApp,
  ssh: ConsoleSsh,
  status: 'running' | 'stopped',
  options: {
    privateKey?: string | null;
    port?: number | null;
    /** The guest's host key its host reported (instances.ssh_host_key). */
    hostKey?: string;
  } = {},
) {
  const user = await app.signIn();
  // A provider's own host (not the demo host, which has no console): the test's dropbear.
  const listing = await world(app).listing({ isDemoHost: false });
  const now = app.clock.now();
  await app.database.db
    .update(instances)
    .set({ status: 'terminated', endTime: now })
    .where(eq(instances.sshPort, ssh.port));
  const [row] = await app.database.db
    .insert(instances)
    .values({
      userId: user.userId,
      gpuListingId: listing.id,
      providerId: listing.providerId,
      source: 'vm',
      billingPlan: 'metered',
      status,
      hourlyRateMicros: listing.hourlyRateMicros,
      startTime: now,
      paidThrough: now,
      provisioningDeadline: now,
      readyAt: now,
      sshHost: '127.0.0.1',
      sshPort: options.port === undefined ? ssh.port : options.port,
      sshUsername: ssh.username,
      platformSshPublicKey: ssh.key.publicKey,
      platformSshPrivateKey:
        options.privateKey === undefined ? ssh.key.privateKey : options.privateKey,
      ...(options.hostKey === undefined ? {} : { sshHostKey: options.hostKey }),
    })
    .returning();
  if (!row) throw new Error('no instance');
  return { ...user, id: row.id };
}
