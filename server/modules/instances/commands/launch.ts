import type { InstanceKind } from '../../../../shared/contracts/instance-kind';
import type { ListingHostStatus } from '../../../../shared/contracts/listings';
import { AppError, notFound, validationFailed } from '../../../lib/errors';
import { kindNotOffered, listingKinds } from '../../hosts/kind-readiness';
import { createImages, imageOfTemplate } from '../../images/catalogue';
import { listingsService } from '../../listings/service';
import { sshKeysService } from '../../ssh-keys/service';
import { usersService } from '../../users/service';
import { DEFAULT_CONTAINER_TEMPLATE_IMAGES } from '../container-images';
import type { InstancesContext } from '../context';
import { imageUnavailable, offersTemplate } from '../image-offer';
import type { PlanName, Plans } from '../plans';
import type { InstanceRow } from '../repo-rows';
import type { CreateMeteredInput, Deadlines, IdleStop, RentOptions } from '../types';
import { checkDeadlines, type DeadlineFields } from './deadlines';
import { kindOf } from './kind';
import { type OpenSpec, openCommand } from './open';
import { isImageTemplate, templateShape } from './template-shape';

/** A rentable listing of a GPU type, as the launch chose it (cheapest first). */
export interface Candidate {
  id: number;
  hourlyRateMicros: bigint;
  hostId: string | null;
  hostStatus: ListingHostStatus;
}

/** How a surface words a launch by GPU type that cannot be made (its texts stay its own). */
export interface ChoiceWords {
  /** No listing of the type is visible. */
  notOffered: () => Error;
  /** None of them can take a unit now. */
  soldOut: () => Error;
  /** None of the rentable ones holds or can fetch the template's image. */
  noImage: () => Error;
  /** Every listing tried was taken (or went dark) meanwhile: what to answer for the last. */
  taken: (error: AppError) => unknown;
  /** Say sold out before looking at images (Instant Deploy), or images first (the VM dashboard). */
  soldOutFirst: boolean;
}

/**
 * What every surface asks for when it launches an instance: the marketplace's rent, the VM
 * dashboard, Instant Deploy and the public API (and the CLI through it).
 */
export interface LaunchRequest {
  userId: string;
  source: CreateMeteredInput['source'] | 'marketplace';
  /** One listing, or the cheapest rentable listing of a GPU type (the next if it is taken). */
  listing: { id: number; providerId?: number } | { gpuType: string; words: ChoiceWords };
  /**
   * The plan: booked hours (at the figures the client showed, else at the server's own quote)
   * or metered with a disk.
   */
  plan:
    | { name: PlanName; hours: number; quote?: { hourlyRate: string; totalCost: string } }
    | {
        name: PlanName;
        storageGb: number;
        /** The renter's "stop at" and "terminate at" (checked here; 400 names `deadlineFields`). */
        deadlines?: Deadlines;
        deadlineFields?: DeadlineFields;
        /** Idle stop as asked (a field left out takes the account default, docs/decisions/019). */
        idleStop?: Partial<IdleStop>;
      };
  /**
   * What runs it (docs/decisions/025; a VM when not named) and, for a container, the OCI image
   * (else its template's: CONTAINER_TEMPLATE_IMAGES_FILE's map, or the public defaults).
   */
  kind?: InstanceKind;
  image?: string;
  /** A template (an image or an Instant Deploy template) and the shape the renter chose. */
  template?: string | null;
  shape?: { cpus: number; memoryGb: number };
  /** The fields of `shape` the renter named: beyond the GPU's share of its host they are 400. */
  askedShape?: { cpus?: number; memoryGb?: number };
  /** An SSH key of the user's the API caller named (checked: not theirs is 400 naming `sshKeyId`). */
  sshKeyId?: string;
  /** The public API key that launches it: its spend counts toward that key's caps too. */
  apiKeyId?: string;
  /** Runs last in the launch's transaction (the Idempotency-Key answer), per listing tried. */
  record?: (listing: Candidate | null) => Promise<RentOptions['record']>;
}

/** The options a plan opens with: the Idempotency-Key answer and the launching API key. */
const optionsOf = (req: LaunchRequest, record: RentOptions['record'] | undefined): RentOptions => ({
  ...(record ? { record } : {}),
  ...(req.apiKeyId ? { apiKeyId: req.apiKeyId } : {}),
});

/** A container asked of a GPU type no host of which runs containers now (docs/decisions/025). */
const noContainerHost = (gpuType: string) => {
  const why = kindNotOffered('container');
  return new AppError(
    409,
    'HOST_NOT_READY',
    `No ${gpuType} host runs containers right now. Choose another GPU type, or create a VM.`,
    { reason: why.reason, fix: why.fix, kind: 'container' },
  );
};

/** Listings tried in turn when the cheapest is taken between reading and renting. */
const ATTEMPTS = 3;

const retryable = (error: unknown): error is AppError =>
  error instanceof AppError &&
  (error.code === 'CAPACITY_UNAVAILABLE' ||
    error.code === 'HOST_OFFLINE' ||
    error.code === 'HOST_NOT_READY');

/**
 * The one front door for a new instance (docs/decisions/016): choose the listing, turn the
 * template into a machine, and open the instance (commands/open.ts: the steps every plan
 * shares, then the plan's own).
 */
export function launchCommand(ctx: InstancesContext, plans: Plans) {
  const { db } = ctx;
  const images = ctx.config.images ?? createImages();
  const containerImages = ctx.config.containerImages ?? DEFAULT_CONTAINER_TEMPLATE_IMAGES;
  const open = openCommand(ctx, plans);

  /** Another demo visitor's sandbox listing does not exist for this caller (ADR 010). */
  async function visibleListing(userId: string, id: number) {
    const found = await listingsService.findById(db, id);
    if (!found || (found.provider.isSandbox && found.provider.userId !== userId)) {
      throw notFound('GPU listing');
    }
    return found;
  }

  /**
   * The cheapest listings of a type rentable for the kind that can run the template (a VM's OS
   * image held or fetchable; a container pulls its own), at most ATTEMPTS.
   */
  async function choose(
    userId: string,
    gpuType: string,
    template: string | null,
    kind: InstanceKind,
    w: ChoiceWords,
  ) {
    const viewerSandboxId = await listingsService.sandboxProviderOf(db, userId);
    const rows = await listingsService.vmCandidates(db, {
      model: gpuType,
      kind,
      ...(viewerSandboxId === undefined ? {} : { viewerSandboxId }),
    });
    if (rows.length === 0) throw w.notOffered();
    const rentable = rows.filter((r) => r.rentable);
    if (kind === 'container') {
      if (rentable.length > 0) return rentable.slice(0, ATTEMPTS);
      const runsContainers = rows.some((r) =>
        listingKinds(r.hostStatus, r.hostReadiness, r.hostGpuIndexes).includes('container'),
      );
      throw runsContainers ? w.soldOut() : noContainerHost(gpuType);
    }
    if (rentable.length === 0 && w.soldOutFirst) throw w.soldOut();
    const pool = rentable.filter((r) => offersTemplate(images, template, r));
    if (pool.length === 0) {
      const fetchable = images.fetchable(imageOfTemplate(template));
      if (rentable.length > 0 || !fetchable) throw w.noImage();
      throw w.soldOut();
    }
    return pool.slice(0, ATTEMPTS);
  }

  /** Idle stop as asked, the account default filling in what was left out (ADR 019). */
  async function idleStopFor(userId: string, asked: Partial<IdleStop> = {}): Promise<IdleStop> {
    const { billing } = await usersService.getSettings(db, userId);
    return {
      minutes: asked.minutes ?? billing.idleStopMinutes,
      thresholdPercent: asked.thresholdPercent ?? billing.idleThresholdPercent,
    };
  }

  /** The spec of a launch on one listing, from the request. */
  async function specOf(req: LaunchRequest, listingId: number, now: Date): Promise<OpenSpec> {
    const { plan } = req;
    const what = kindOf(req, containerImages);
    const source = req.source === 'marketplace' && !('hours' in plan) ? 'api' : req.source;
    if ('hours' in plan) {
      // A rental by the hour is a VM (docs/decisions/025: containers are paid by the minute).
      if (req.kind === 'container') {
        throw validationFailed({
          kind: ['A container runs on a metered instance: leave out durationHours'],
        });
      }
      const providerId = 'id' in req.listing ? req.listing.providerId : undefined;
      return {
        plan: plan.name,
        userId: req.userId,
        gpuListingId: listingId,
        ...(providerId !== undefined ? { providerId } : {}),
        source,
        kind: 'vm',
        ask: {
          hours: plan.hours,
          ...(providerId !== undefined ? { providerId } : {}),
          ...(plan.quote ? { quote: plan.quote } : {}),
        },
      };
    }
    if (plan.deadlines) checkDeadlines(plan.deadlines, now, plan.deadlineFields);
    return {
      plan: plan.name,
      userId: req.userId,
      gpuListingId: listingId,
      source,
      kind: what.kind,
      setup: {
        ...templateShape(req.template, req.shape, what.kind),
        ...what,
        ...(req.askedShape ? { askedShape: req.askedShape } : {}),
      },
      ask: {
        storageGb: plan.storageGb,
        ...(plan.deadlines ? { deadlines: plan.deadlines } : {}),
        idleStop: await idleStopFor(req.userId, plan.idleStop),
      },
    };
  }

  /** A launch as a surface asks for it: its listing chosen, then opened on its plan. */
  async function request(req: LaunchRequest, now: Date): Promise<InstanceRow> {
    // What runs it is checked before anything is looked up (400 names the field).
    kindOf(req, containerImages);
    if (req.sshKeyId) {
      try {
        await sshKeysService.authorizedKeys(db, req.userId, [req.sshKeyId]);
      } catch (error) {
        if (error instanceof AppError && error.status === 404) {
          throw validationFailed({ sshKeyId: ['Not one of your SSH keys'] });
        }
        throw error;
      }
    }
    const { listing } = req;
    if ('id' in listing) {
      const spec = await specOf(req, listing.id, now);
      // A VM's host must hold or be able to fetch the template's OS image (else 409).
      if (spec.kind === 'vm' && req.template && !images.fetchable(imageOfTemplate(req.template))) {
        const found = await visibleListing(req.userId, listing.id);
        const [held] = await listingsService.heldImagesOf(db, [found.listing.id]);
        if (!held || !offersTemplate(images, req.template, held)) {
          throw imageUnavailable(isImageTemplate(req.template) ? req.template : 'ubuntu22');
        }
      }
      return open(spec, now, optionsOf(req, await req.record?.(null)));
    }
    const what = kindOf(req, containerImages);
    const pool = await choose(
      req.userId,
      listing.gpuType,
      req.template ?? null,
      what.kind,
      listing.words,
    );
    let last: unknown = listing.words.soldOut();
    for (const candidate of pool) {
      try {
        const spec = await specOf(req, candidate.id, now);
        return await open(spec, now, optionsOf(req, await req.record?.(candidate)));
      } catch (error) {
        // Taken (or its host went dark) since the list was read: try the next cheapest.
        if (!retryable(error)) throw error;
        last = listing.words.taken(error);
      }
    }
    throw last;
  }

  return { request, open };
}
