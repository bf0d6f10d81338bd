import type {
  DeployGpuList,
  DeploymentStatusView,
  DeployRequestBody,
  DeployResultView,
} from '../../../shared/contracts/deploy';
import { deployTemplate } from '../../../shared/deploy-templates';
import { microsToDollars } from '../../../shared/rules/money';
import type { Db, Tx } from '../../db/client';
import { AppError, notFound, validationFailed } from '../../lib/errors';
import { DEMO_HOST_ID } from '../hosts/demo-host';
import type { Images } from '../images/catalogue';
import type { InstanceRow, InstancesService } from '../instances/service';
import { imageUnavailable } from '../instances/surfaces/vm-service';
import type { OfferedListing } from '../listings/offerings';
import { listingsService } from '../listings/service';
import { launchWarnings } from '../ssh-keys/service';
import { presentDeployment } from './presenter';
import { deployRepo } from './repo';

export interface DeployConfig {
  /** The image catalogue: a deploy runs where its host holds or can fetch Ubuntu 22.04. */
  images: Images;
  /** How long the demo host takes to report ready, and how often the worker looks. */
  demoProvisioningDelayMs: number;
  workerIntervalMs: number;
  /** A real host learns of a new instance at its next heartbeat. */
  heartbeatIntervalMs: number;
}

/** The 'Deployment Initiated' toast's text, word for word (docs/rules.md, Screens and texts). */
export const DEPLOY_MESSAGE =
  "Your GPU instance is being prepared. You'll receive access details shortly.";

const soldOut = (gpuType: string) =>
  new AppError(
    409,
    'CAPACITY_UNAVAILABLE',
    `Every ${gpuType} is taken right now (Sold Out). Choose another GPU or try again later.`,
    { gpuType },
  );

/**
 * Instant Deploy: a template on the cheapest rentable GPU of a type, as a metered instance
 * (docs/decisions/007) whose cloud-init user-data installs the template's software.
 */
export function createDeployService(db: Db, instances: InstancesService, config: DeployConfig) {
  const demoReadyMs = config.demoProvisioningDelayMs + config.workerIntervalMs;

  /** What we know of how long a listing's host takes to run a new instance. */
  async function readiness(listing: Pick<OfferedListing, 'hostStatus' | 'hostId'>) {
    if (listing.hostStatus === 'demo') {
      return { seconds: Math.ceil(demoReadyMs / 1000), basis: 'demo_host' as const };
    }
    const measured = listing.hostId
      ? await deployRepo.measuredReadySeconds(db, listing.hostId)
      : null;
    return measured === null
      ? { seconds: null, basis: null }
      : { seconds: measured, basis: 'measured' as const };
  }

  /** Milliseconds from creation to running that a deployment's estimate uses. */
  async function expectedReadyMs(row: InstanceRow): Promise<number> {
    const hostId = row.instance.hostId;
    if (hostId === DEMO_HOST_ID) return demoReadyMs;
    const measured = hostId ? await deployRepo.measuredReadySeconds(db, hostId) : null;
    if (measured !== null) return measured * 1000;
    const template = row.instance.template;
    const seconds = template ? deployTemplateSeconds(template) : 60;
    return seconds * 1000 + config.heartbeatIntervalMs;
  }

  return {
    /** Per GPU type the user may rent: the cheapest rentable rate, or Sold Out. */
    async gpus(userId: string): Promise<DeployGpuList> {
      const sandbox = await listingsService.sandboxProviderOf(db, userId);
      const offerings = await listingsService.offerings(db, sandbox);
      const gpus = await Promise.all(
        offerings.map(async (o) => {
          const shown = o.pick ?? o.listings[0];
          const ready = o.pick ? await readiness(o.pick) : { seconds: null, basis: null };
          return {
            gpu_type: o.model,
            memory_gb: o.memoryGb,
            hourly_rate: microsToDollars(shown?.hourlyRateMicros ?? 0n),
            is_available: o.pick !== null,
            ready_seconds: ready.seconds,
            ready_basis: ready.basis,
          };
        }),
      );
      gpus.sort(
        (a, b) =>
          Number(b.is_available) - Number(a.is_available) ||
          Number(a.hourly_rate) - Number(b.hourly_rate) ||
          a.gpu_type.localeCompare(b.gpu_type),
      );
      return { gpus };
    },

    /**
     * Creates the deployment on the cheapest rentable listing of the type (the next one if it
     * is taken meanwhile). 400 for a type not on offer, 409 Sold Out, 402 without an hour of
     * credits. `record` stores the Idempotency-Key answer in the same transaction.
     */
    async deploy(
      userId: string,
      body: DeployRequestBody,
      now: Date,
      record?: (tx: Tx, answer: DeployResultView) => Promise<void>,
    ): Promise<DeployResultView> {
      const template = deployTemplate(body.template);
      // The answer names how long this listing's host takes: known once the listing is chosen.
      let answer: ((row: InstanceRow) => DeployResultView) | null = null;
      const row = await instances.launch(
        {
          userId,
          source: 'deploy',
          listing: {
            gpuType: body.gpu_type,
            words: {
              notOffered: () => validationFailed({ gpu_type: ['No GPU of this type is on offer'] }),
              soldOut: () => soldOut(body.gpu_type),
              noImage: () => imageUnavailable('ubuntu22'),
              taken: (error) => (error.code === 'HOST_OFFLINE' ? error : soldOut(body.gpu_type)),
              soldOutFirst: true,
            },
          },
          plan: { name: 'metered', storageGb: body.storage_gb },
          kind: body.kind,
          template: template.id,
          record: async (listing) => {
            const ready = listing ? await readiness(listing) : { seconds: null, basis: null };
            const expectedMs =
              listing?.hostStatus === 'demo'
                ? demoReadyMs
                : ready.seconds !== null
                  ? ready.seconds * 1000
                  : template.deploySeconds * 1000 + config.heartbeatIntervalMs;
            const present = (created: InstanceRow): DeployResultView => ({
              success: true,
              message: DEPLOY_MESSAGE,
              ...presentDeployment(created, expectedMs),
              warnings: launchWarnings(created),
            });
            answer = present;
            return record ? (tx, created) => record(tx, present(created)) : undefined;
          },
        },
        now,
      );
      if (!answer) throw new Error('deploy launched without its answer');
      return (answer as (row: InstanceRow) => DeployResultView)(row);
    },

    /** A deployment's live status: its owner's deploys only (404 for anything else). */
    async status(userId: string, id: number): Promise<DeploymentStatusView> {
      const row = await instances.findOwn(userId, id, 'Deployment');
      if (row.instance.source !== 'deploy') throw notFound('Deployment');
      return presentDeployment(row, await expectedReadyMs(row));
    },
  };
}

function deployTemplateSeconds(template: string): number {
  try {
    return deployTemplate(template as Parameters<typeof deployTemplate>[0]).deploySeconds;
  } catch {
    return 60;
  }
}

export type DeployService = ReturnType<typeof createDeployService>;
