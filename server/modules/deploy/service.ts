import { randomBytes } from 'node:crypto';
import type {
  DeployGpuList,
  DeploymentStatusView,
  DeployRequestBody,
  DeployResultView,
} from '../../../shared/contracts/deploy';
import { deployTemplate, deployUserData } from '../../../shared/deploy-templates';
import { microsToDollars } from '../../../shared/rules/money';
import type { Db, Tx } from '../../db/client';
import { AppError, notFound, validationFailed } from '../../lib/errors';
import { generateSshKeyPair } from '../../lib/ssh-keypair';
import { DEMO_HOST_ID } from '../hosts/demo-host';
import { heldImages, type Images, imageOfTemplate } from '../images/catalogue';
import type { InstanceRow, InstancesService } from '../instances/service';
import { imageUnavailable } from '../instances/vm-service';
import type { OfferedListing } from '../listings/offerings';
import { listingsService } from '../listings/service';
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

/** Spec part 2 section 8 ('Deployment Initiated'). */
export const DEPLOY_MESSAGE =
  "Your GPU instance is being prepared. You'll receive access details shortly.";

/** Tries at most this many listings when the cheapest is taken meanwhile. */
const ATTEMPTS = 3;

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
      const sandbox = await listingsService.sandboxProviderOf(db, userId);
      const [offering] = await listingsService.offerings(db, sandbox, body.gpu_type);
      if (!offering) throw validationFailed({ gpu_type: ['No GPU of this type is on offer'] });
      let candidates = offering.listings.filter((l) => l.rentable);
      if (candidates.length === 0) throw soldOut(body.gpu_type);
      // Only where the host holds or can fetch the template's image (docs/decisions/015).
      const image = imageOfTemplate(template.id);
      if (!config.images.fetchable(image)) {
        const held = await listingsService.heldImagesOf(
          db,
          candidates.map((l) => l.id),
        );
        const holding = new Set(
          held.filter((h) => heldImages(h.heldImages).includes(image)).map((h) => h.id),
        );
        candidates = candidates.filter((l) => holding.has(l.id));
        if (candidates.length === 0) throw imageUnavailable('ubuntu22');
      }
      candidates = candidates.slice(0, ATTEMPTS);
      const jupyterToken = randomBytes(24).toString('hex');
      const userData = deployUserData(template.id, { jupyterToken });
      let lastRefusal: unknown = soldOut(body.gpu_type);
      for (const listing of candidates) {
        const ready = await readiness(listing);
        const expectedMs =
          listing.hostStatus === 'demo'
            ? demoReadyMs
            : ready.seconds !== null
              ? ready.seconds * 1000
              : template.deploySeconds * 1000 + config.heartbeatIntervalMs;
        const answer = (row: InstanceRow): DeployResultView => ({
          success: true,
          message: DEPLOY_MESSAGE,
          ...presentDeployment(row, expectedMs),
        });
        try {
          const row = await instances.createMetered(
            userId,
            {
              gpuListingId: listing.id,
              source: 'deploy',
              template: template.id,
              storageGb: body.storage_gb,
              cpus: template.cpuCores,
              memoryGb: template.ramGb,
              userData,
              platformKey: generateSshKeyPair(`rentgpu-console-${template.id}`),
            },
            now,
            record ? { record: (tx, created) => record(tx, answer(created)) } : {},
          );
          return answer(row);
        } catch (error) {
          // Taken (or its host went dark) between the list and the create: try the next.
          const code = error instanceof AppError ? error.code : null;
          if (code !== 'CAPACITY_UNAVAILABLE' && code !== 'HOST_OFFLINE') throw error;
          lastRefusal = code === 'HOST_OFFLINE' ? error : soldOut(body.gpu_type);
        }
      }
      throw lastRefusal;
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
