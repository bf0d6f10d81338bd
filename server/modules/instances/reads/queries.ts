import type { InstanceState } from '../../../../shared/rules/instance-lifecycle';
import type { Conn } from '../../../db/client';
import { conflict } from '../../../lib/errors';
import { ledgerService } from '../../ledger/service';
import { providersService } from '../../providers/service';
import { type Actor, actorOf, authorize } from '../authorize';
import { consoleHostKeyRepo } from '../console/repo';
import type { InstancesContext } from '../context';
import { hostInstancesRepo } from '../host-side/host-repo';
import { instancesRepo } from '../repo';
import type { InstanceRow } from '../repo-rows';
import { stateOf } from '../states';
import type { ConsoleTarget } from '../types';
import type { InstanceEarnings } from './presenter';

/** What the web console says on a demo host (simulated: no machine, no console). */
export const DEMO_HOST_NO_CONSOLE =
  'There is no console here: this instance runs on a demo host, a simulation for trying RentGPU with no machine behind it. Instances on a real provider’s host have a web console.';

/** What the instance core answers without changing anything. */
export function instanceQueries(ctx: InstancesContext) {
  const { db } = ctx;

  /** One of the actor's instances (their own, of their surface's plan), else 404. */
  async function getOwn(who: string | Actor, id: number): Promise<InstanceRow> {
    return authorize(actorOf(who), 'view', await instancesRepo.findView(db, id));
  }

  return {
    getOwn,
    /** Instances a host has yet to converge: its desired-state list. */
    pendingOnHost: (hostId: string, limit = 100) => instancesRepo.pendingOnHost(db, hostId, limit),
    /** The lowest SSH port in a range that no live instance uses (hosts assign ports). */
    freePort: (first: number, last: number) => instancesRepo.freePort(db, first, last),
    /** The instance if it is placed on this host (another host's is not). */
    findOnHost: (hostId: string, id: number) => hostInstancesRepo.findOnHost(db, hostId, id),

    /** The user's rentals (the plans listed as rentals), newest first. */
    listRentalsByUser: (userId: string) => instancesRepo.list(db, { userId }, 'rental'),
    /**
     * A provider's instances of both plans, newest first, each with what its earnings account
     * took for it in the ledger ("instance:<id>" and "rental:<id>" postings).
     */
    async listProviderInstances(providerId: number) {
      const [rows, earned] = await Promise.all([
        instancesRepo.list(db, { providerId }),
        ledgerService.earningsByReference(db, providerId),
      ]);
      const byInstance = new Map<string, InstanceEarnings>();
      for (const line of earned) {
        const id = /^(?:instance|rental):(\d+)$/.exec(line.reference ?? '')?.[1];
        if (!id) continue;
        const sums = byInstance.get(id) ?? { computeMicros: 0n, outageCreditMicros: 0n };
        if (line.kind === 'outage_credit') sums.outageCreditMicros += line.totalMicros;
        else sums.computeMicros += line.totalMicros;
        byInstance.set(id, sums);
      }
      return rows.map((row) => ({
        row,
        earned: byInstance.get(String(row.instance.id)) ?? {
          computeMicros: 0n,
          outageCreditMicros: 0n,
        },
      }));
    },
    /** The provider profile a user owns, if any (who may see a provider's rentals). */
    providerIdOf: (userId: string) => providersService.providerIdOf(db, userId),
    /** The user's machines (the plans listed as machines: the VM dashboard), newest first. */
    listMeteredByUser: (userId: string) => instancesRepo.list(db, { userId }, 'machine'),
    /** The public API's list: one user's instances of both plans, newest first, a page at a time. */
    listPageByUser: (
      userId: string,
      page: { status?: InstanceState; beforeId?: number; limit: number },
    ) => instancesRepo.listPage(db, userId, page),
    /** Instances of a user that still exist, counted in the caller's transaction when given. */
    countLiveByUser: (userId: string, conn: Conn = db) =>
      instancesRepo.countLiveByUser(conn, userId),

    /**
     * What the web console connects to: the caller's instance (someone else's is not found),
     * running, with an SSH address and the platform's key; otherwise 409 saying why not.
     */
    async consoleTarget(userId: string, id: number): Promise<ConsoleTarget> {
      const { instance, listing } = authorize(
        { userId },
        'console',
        await instancesRepo.findView(db, id),
      );
      if (instance.status !== 'running') {
        throw conflict(`The instance is ${instance.status}, not running.`, {
          state: instance.status,
        });
      }
      // A simulated host has no machine behind its SSH address: say so, rather than let the
      // connection fail on a name that does not resolve (issue 26 part 4).
      if (listing.isDemoHost || instance.hostId === 'demo') {
        throw conflict(DEMO_HOST_NO_CONSOLE, { state: 'running', demoHost: true });
      }
      if (!instance.sshHost || !instance.sshPort) {
        throw conflict('The instance has not reported its SSH address yet.', { state: 'running' });
      }
      if (!instance.platformSshPrivateKey) {
        throw conflict('This instance has no web console key; connect over SSH instead.', {
          state: 'running',
        });
      }
      return {
        instanceId: instance.id,
        generation: instance.generation,
        host: instance.sshHost,
        port: instance.sshPort,
        username: instance.sshUsername,
        privateKey: instance.platformSshPrivateKey,
        hostKey: instance.sshHostKey,
      };
    },

    /**
     * The guest's host key the console met, pinned on the instance when its run has none
     * stored yet (console/repo.ts); answers the key stored for the run now, null when the
     * run is over. Every server process, and every restart, checks that same key.
     */
    pinConsoleHostKey: (
      target: Pick<ConsoleTarget, 'instanceId' | 'generation'>,
      key: { line: string; fingerprint: string },
    ): Promise<string | null> =>
      consoleHostKeyRepo.pin(db, { id: target.instanceId, generation: target.generation }, key),

    /** An instance's status now, null when there is no such instance (the console polls it). */
    async statusOf(id: number): Promise<InstanceState | null> {
      const row = await instancesRepo.findView(db, id);
      return row ? stateOf(row.instance) : null;
    },
  };
}
