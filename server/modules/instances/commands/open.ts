import type { InstanceKind } from '../../../../shared/contracts/instance-kind';
import {
  gpusInUse,
  hostNotReady,
  hostOffline,
  listingGpusMissing,
  notFound,
} from '../../../lib/errors';
import { generateSshKeyPair } from '../../../lib/ssh-keypair';
import { kindBlocker } from '../../hosts/kind-readiness';
import { listingShare } from '../../listings/gpu-share';
import { listingsService } from '../../listings/service';
import type { InstancesContext } from '../context';
import { type Opening, type PlanAsk, type PlanName, type Plans, planNamed } from '../plans';
import { instancesRepo } from '../repo';
import type { InstanceRow } from '../repo-rows';
import type { CreateMeteredInput, RentOptions } from '../types';
import { type AskedShape, shapeWithinShare } from './fit-shape';

/**
 * One instance to open on one listing, as the launch hands it to `open`: the plan by name
 * (looked up, never compared), what runs it and the plan's own ask.
 */
export interface OpenSpec {
  plan: PlanName;
  userId: string;
  gpuListingId: number;
  /** The provider the client showed (a rent names it; the reserve checks it). */
  providerId?: number;
  source: CreateMeteredInput['source'] | 'marketplace';
  kind: InstanceKind;
  /** What the machine is: its template, shape, image and setup (a rental has none). */
  setup?: AskedShape &
    Pick<CreateMeteredInput, 'template' | 'containerImage' | 'userData' | 'platformKey'>;
  ask: PlanAsk;
}

/** The generic half of every launch (docs/decisions/016): what all plans share, once. */
export function openCommand(ctx: InstancesContext, plans: Plans) {
  return open;

  /**
   * Opens one instance on one listing in one transaction: the steps every plan shares — the
   * listing read with its unit taken (another visitor's sandbox listing is 404), the shape
   * fitted to one GPU's share of its host, the plan's own checks, the host's readiness for the
   * kind, its GPU, the row — then the plan's first money; `options.record` runs last in it.
   * Each step that cannot be done throws its reason, and nothing stays.
   */
  function open(spec: OpenSpec, now: Date, options: RentOptions = {}): Promise<InstanceRow> {
    const plan = planNamed(plans, spec.plan);
    const kind = spec.kind ?? 'vm';
    // Every instance has the web console, of every plan (docs/architecture.md, "Web console"):
    // a template brings its key pair, anything else (a rental) gets one, made before the
    // transaction so no lock waits on it (about 55 µs; made, not used, when refused).
    const platformKey = spec.setup?.platformKey ?? generateSshKeyPair('rentgpu-web-console');
    return ctx.accounts.transact(async (tx) => {
      // The unit taken and the listing read in one statement. When none could be taken the
      // listing is read alone, to say why: the checks below run in the same order on either,
      // and one that fails rolls a taken unit back with the rest.
      const reserved = await listingsService.reserveForLaunch(tx, {
        id: spec.gpuListingId,
        renterId: spec.userId,
        ...(spec.providerId !== undefined ? { providerId: spec.providerId } : {}),
        kind,
      });
      const found =
        reserved?.found ??
        (await listingsService.findForLaunch(tx, spec.gpuListingId, spec.userId));
      if (!found || (found.provider.isSandbox && found.provider.userId !== spec.userId)) {
        throw notFound('GPU listing');
      }
      const shape = spec.setup
        ? shapeWithinShare(spec.setup, listingShare(found.listing, found.hostMachine))
        : {};
      const opening: Opening = {
        userId: spec.userId,
        found,
        rateMicros: plan.rateOf(found.listing.hourlyRateMicros),
        ask: spec.ask,
        now,
      };
      await plan.admit(tx, opening);
      if (found.hostStatus === 'offline' || found.hostStatus === 'none') {
        throw hostOffline(found.hostStatus);
      }
      // A host that cannot run its kind is 409 with why (its own reason first, then a GPU it
      // lost); the reserve checks the same in its SQL.
      const blocker = kindBlocker(
        found.hostReadiness,
        kind,
        found.listing.hostGpuIndexes,
        found.hostStatus === 'demo',
      );
      if (blocker) throw hostNotReady(blocker, kind);
      if (found.listing.gpuProblem) throw listingGpusMissing(found.listing.gpuProblem);
      // Every check passed and still no unit: taken meanwhile, or not on sale.
      if (!reserved) throw plan.unitTaken();
      const { unit } = reserved;
      // Its GPU, under the pool's lock the reserve took, chosen by the insert itself: none free
      // rolls it all back (ADR 020).
      const gpuChoice = listingsService.gpuChoiceForNew(unit.pool, unit.hostGpus);
      if (!gpuChoice) throw gpusInUse();
      const setup = spec.setup ?? {};
      const inserted = await instancesRepo.insertChoosingGpu(
        tx,
        {
          userId: spec.userId,
          gpuListingId: unit.id,
          providerId: unit.providerId,
          hostId: unit.hostId,
          source: spec.source,
          kind,
          containerImage: kind === 'container' ? (setup.containerImage ?? null) : null,
          // A container's root is not its host's (a user namespace): renters log in as root.
          ...(kind === 'container' ? { sshUsername: 'root' } : {}),
          template: setup.template ?? null,
          ...shape,
          userData: setup.userData ?? null,
          platformSshPublicKey: platformKey.publicKey,
          platformSshPrivateKey: platformKey.privateKey,
          billingPlan: plan.name,
          status: 'provisioning',
          stateChangedAt: now,
          hourlyRateMicros: opening.rateMicros,
          startTime: now,
          provisioningDeadline: new Date(now.getTime() + ctx.config.provisioningTimeoutMs),
          apiKeyId: options.apiKeyId ?? null,
          ...plan.columns(opening),
        },
        gpuChoice,
      );
      if (inserted.gpuIndexes.length === 0) throw gpusInUse();
      const instance = await plan.opened(tx, inserted, opening);
      // Its view from what this transaction already holds (no statement to read it back).
      const row: InstanceRow = {
        instance,
        listing: {
          model: found.listing.model,
          location: found.listing.location,
          isDemoHost: found.listing.isDemoHost,
          memoryGb: found.listing.memoryGb,
        },
        provider: { companyName: found.provider.companyName },
        renterHasSshKey: found.renterHasSshKey,
      };
      await options.record?.(tx, row);
      return row;
    });
  }
}
