import { z } from 'zod';
import { MAX_RENTAL_HOURS, MIN_RENTAL_HOURS } from '../constants';
import { DEPLOY_TEMPLATE_IDS } from '../deploy-templates';
import { INSTANCE_ACTIONS, INSTANCE_STATES } from '../rules/instance-lifecycle';
import { type ApiKeyPermission, RATE_TIERS, type RateTier } from './api-keys';
import { billingPlan } from './billing-plans';
import { deadlineAt, deadlinesInOrder } from './deadlines';
import { hostView } from './hosts';
import { idleMinutes, idleThreshold } from './idle-stop';
import { INSTANCE_KINDS, instanceKind, ociReference } from './instance-kind';
import { VM_TEMPLATES } from './kvm';
import { launchWarnings } from './launch-warnings';
import { TEXT_LIMITS } from './limits';
import {
  gpuListingView,
  gpuShareView,
  INSTANCE_HOST_STATUSES,
  listingsQuery,
  matchesCatalogue,
  newListingFields,
  publicNumberFilters,
  reliabilityView,
  updateListingBody,
} from './listings';
import { bodySerialId, serialId } from './params';
import { rentalView } from './rentals';

/**
 * The public API, /api/v1 (docs/architecture.md, Public API): bearer API keys, rate tiers,
 * fixed shapes. The OpenAPI document (docs/openapi.json) is generated from these schemas,
 * and the CLI (cli/) reads its types from here too.
 */

export const PUBLIC_API_BASE = '/api/v1';
export const DEFAULT_API_URL = 'http://localhost:5000';

/** Requests per hour of each tier (docs/decisions/012). */
export const TIER_LIMITS: Record<RateTier, number> = RATE_TIERS;
export const RATE_WINDOW_SECONDS = 3600;

/** Which permission a call needs: read for reads, write for changes, admin for keys. */
export type RequiredPermission = ApiKeyPermission;

/** Hours in a JSON body: a number as sent (no coercion of "2", true or [2]). */
const hours = z
  .number({ message: 'Whole hours only' })
  .int({ message: 'Whole hours only' })
  .min(MIN_RENTAL_HOURS, { message: 'Minimum 1 hour, maximum 30 days (720 hours)' })
  .max(MAX_RENTAL_HOURS, { message: 'Minimum 1 hour, maximum 30 days (720 hours)' });

// ---- GPU listings --------------------------------------------------------------------------

export const publicListingsQuery = listingsQuery
  .omit({ providerId: true })
  .extend(publicNumberFilters);

/** The public listing shape: GPU listing {id, model, memory, …, provider {name, reputation}}. */
export const publicGpuListing = z
  .object({
    id: z.number().int(),
    model: z.string(),
    memory: z.string(),
    cudaCores: z.number().int().nullable(),
    location: z.string(),
    hourlyRate: z.string().describe('US dollars per hour, e.g. "1.45"'),
    dailyRate: z.string().describe('US dollars per day (hourly × 24)'),
    availableCount: z.number().int(),
    provider: z.object({ name: z.string(), reputation: z.string() }),
    gpuShare: gpuShareView.describe(
      "What one GPU's share of the listing's host gives an instance: vCPUs and GB of RAM. A create asking for more is refused. Null until its host has reported.",
    ),
    kinds: z
      .array(z.enum(INSTANCE_KINDS))
      .describe(
        'The kinds of instance its host can run now: `vm`, `container` (a create of another kind is refused). Filter with `kind`.',
      ),
    gpuCount: gpuListingView.shape.gpuCount.describe(
      'GPUs one instance gets: 4 for a "4x H100" node. Filter with `gpuCount`.',
    ),
    gpuMemoryGb: gpuListingView.shape.gpuMemoryGb.describe(
      'GB of memory on each of those GPUs. Filter with `minVramGb`.',
    ),
    pricePerGpuHour: gpuListingView.shape.pricePerGpuHour.describe(
      'US dollars per GPU-hour (hourlyRate ÷ gpuCount). Filter with `maxGpuHourPrice`, sort with `gpu-price-asc`.',
    ),
    diskGb: gpuListingView.shape.diskGb.describe(
      "GB of disk one instance gets (its GPUs' share of its host's disk); null until its host has reported.",
    ),
    driverVersion: gpuListingView.shape.driverVersion.describe(
      'The NVIDIA driver version its host reports; null when unknown.',
    ),
    cudaVersion: gpuListingView.shape.cudaVersion.describe(
      'The CUDA version its host reports; null when unknown.',
    ),
    reliability: reliabilityView.describe(
      "Its host's uptime over the last 30 days from recorded outages; `uptimePercent` is null with too little history. Filter with `minReliability`.",
    ),
  })
  .meta({ id: 'GpuListing' });
export type PublicGpuListing = z.infer<typeof publicGpuListing>;

export const gpuListingsPage = z.object({
  gpus: z.array(publicGpuListing),
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type GpuListingsPage = z.infer<typeof gpuListingsPage>;

// ---- Templates -----------------------------------------------------------------------------

/** Every template an instance may be created with: the Instant Deploy ones and the VM images. */
export const PUBLIC_TEMPLATE_IDS = [...DEPLOY_TEMPLATE_IDS, ...VM_TEMPLATES] as const;
export type PublicTemplateId = (typeof PUBLIC_TEMPLATE_IDS)[number];

export const publicTemplate = z
  .object({
    id: z.enum(PUBLIC_TEMPLATE_IDS),
    /** software: Ubuntu 22.04 with a stack installed on first boot; image: the machine's OS. */
    kind: z.enum(['software', 'image']),
    name: z.string(),
    description: z.string(),
    cpuCores: z.number().int(),
    ramGb: z.number().int(),
    /** The GPU it suits best; null for a plain image. */
    recommendedGpu: z.string().nullable(),
    software: z.array(z.string()),
    /** Seconds from create to ready the template's setup takes (before the host's own time). */
    deploySeconds: z.number().int().nullable(),
    /** Whether an instance can be created with it now (windows11 needs a host with the image). */
    available: z.boolean(),
    /** Why it cannot be chosen now; null when it can. */
    reason: z.string().nullable(),
  })
  .meta({ id: 'Template' });
export type PublicTemplate = z.infer<typeof publicTemplate>;
export const templatesList = z.object({ templates: z.array(publicTemplate) });
export type TemplatesList = z.infer<typeof templatesList>;

// ---- Instances -----------------------------------------------------------------------------

export const createInstanceBody = z
  .object({
    gpuListingId: bodySerialId,
    kind: instanceKind
      .optional()
      .describe(
        "What runs it: `vm` (default; GPUs passed through to a virtual machine) or `container` (an OCI image on the host's own NVIDIA driver, GPUs through CDI). The listing's `kinds` says which its host offers.",
      ),
    image: ociReference
      .optional()
      .describe(
        "kind container only: the OCI image to run, e.g. `pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime`. Left out: the template's image. The host resolves it to a digest (`imageDigest`).",
      ),
    durationHours: hours
      .optional()
      .describe('With a duration: a booked rental paid up front. Without: metered per minute.'),
    sshKeyId: z
      .string()
      .uuid({ message: 'Not an SSH key id' })
      .optional()
      .describe('One of your SSH keys (all your keys are installed on the instance).'),
    template: z
      .enum(PUBLIC_TEMPLATE_IDS, { message: 'Choose one of the templates (GET /templates)' })
      .optional()
      .describe(
        'A template from GET /templates: its software is installed on first boot (metered instances only).',
      ),
    stopAt: deadlineAt('stopAt')
      .optional()
      .describe(
        'Metered only: when the instance is stopped for you (its disk kept), in the future and within a year.',
      ),
    terminateAt: deadlineAt('terminateAt')
      .optional()
      .describe(
        'Metered only: when the instance is terminated for you (its disk deleted), in the future and within a year, and not before stopAt (400 VALIDATION_FAILED on terminateAt otherwise).',
      ),
    idleStopMinutes: idleMinutes('idleStopMinutes')
      .optional()
      .describe(
        'Metered only: stop it (its disk kept) once its GPUs stayed under idleThresholdPercent with no SSH session (one its host has seen open 2 minutes or more) and no web console open for this many minutes; 0 turns it off, otherwise 15 to 10080. Left out: your account default.',
      ),
    idleThresholdPercent: idleThreshold('idleThresholdPercent')
      .optional()
      .describe(
        'Metered only: GPU utilisation (percent, 1 to 100) under which it is idle. Default 5.',
      ),
  })
  .refine((body) => body.image === undefined || body.kind === 'container', {
    message: 'image is for containers: add "kind": "container"',
    path: ['image'],
  })
  .refine((body) => body.kind !== 'container' || body.durationHours === undefined, {
    message: 'A container runs on a metered instance: leave out durationHours',
    path: ['kind'],
  })
  .refine((body) => body.template === undefined || body.durationHours === undefined, {
    message: 'A template runs on a metered instance: leave out durationHours',
    path: ['template'],
  })
  .refine(...deadlinesInOrder('stopAt', 'terminateAt'))
  .refine(
    (body) =>
      (body.stopAt === undefined &&
        body.terminateAt === undefined &&
        body.idleStopMinutes === undefined &&
        body.idleThresholdPercent === undefined) ||
      body.durationHours === undefined,
    {
      message:
        'Stop and terminate times and idle stop are for metered instances: leave out durationHours',
      path: ['stopAt'],
    },
  )
  .meta({
    id: 'CreateInstance',
    // A booked instance for 4 hours; leave out durationHours (and add a template) for metered.
    examples: [{ gpuListingId: 1, durationHours: 4 }],
  });
export type CreateInstanceBody = z.input<typeof createInstanceBody>;

export const publicInstance = z
  .object({
    id: z.number().int(),
    status: z.enum(INSTANCE_STATES),
    sshHost: z.string().nullable(),
    sshPort: z.number().int().nullable(),
    sshUsername: z.string(),
    /** When it is expected (or was) ready; null once it has ended or while it is stopped. */
    estimatedStartTime: z.string().nullable(),
    gpuListingId: z.number().int(),
    gpuModel: z.string(),
    location: z.string(),
    kind: z.enum(INSTANCE_KINDS).describe('What runs it: a virtual machine or a container'),
    image: z.string().nullable().describe("A container's OCI image as asked for; null for a VM"),
    imageDigest: z
      .string()
      .nullable()
      .describe(
        "A container's image digest (`sha256:…`) as its host resolved it; null until then and for a VM",
      ),
    billingPlan: billingPlan,
    hourlyRate: z.string(),
    durationHours: z.number().int().nullable(),
    createdAt: z.string(),
    endsAt: z.string().nullable(),
    endedAt: z.string().nullable(),
    /** What may be done now: stop, start, terminate. */
    actions: z.array(z.enum(INSTANCE_ACTIONS)),
    /**
     * While provisioning or starting: the step its host reports, in words ("downloading image
     * (42%)", "booting", "running setup"); null otherwise or before the host said.
     */
    provisioningStep: z.string().nullable(),
    /**
     * Why it failed, in its host's words ("no hardware virtualisation …", "no free SSH or VNC
     * port"): set only once its status is `failed` and the host said why; null otherwise.
     */
    failureReason: z.string().nullable(),
    /**
     * The guest's SSH host key fingerprint (`SHA256:…`, as `ssh-keygen -lf` prints it), computed
     * by the server from the key its host reported when this run became ready; null until then.
     */
    sshHostKeyFingerprint: z.string().nullable(),
    /** That host key as an OpenSSH `type base64` line, for a known_hosts entry; null until then. */
    sshHostKey: z.string().nullable(),
    /** Metered: when it is stopped for you (PATCH /instances/{id} sets it); null: none, or ended. */
    stopAt: z.string().nullable(),
    /** Metered: when it is terminated for you; null: none, or it has ended. */
    terminateAt: z.string().nullable(),
    /** Metered: idle stop's minutes (0: off) and its GPU threshold in percent (docs/decisions/019). */
    idleStopMinutes: z.number().int(),
    idleThresholdPercent: z.number().int(),
    /** While running with idle stop on: when it is stopped if it stays idle; null otherwise. */
    idleStopAt: z.string().nullable(),
    /** When you were warned it is idle (10 minutes before the stop); null once active again. */
    idleWarnedAt: z.string().nullable(),
    computeChargeNote: z
      .string()
      .nullable()
      .describe(
        'Compute is charged from the moment the instance is ready (its host verified a login), never for an image download, a boot or a start; storage from create. While it is not charged this says why: "provisioning — not charged" until first ready, "starting — not charged", "host unreachable — not charged"; null while charged as it runs, stopped or ended',
      ),
    hostStatus: z
      .enum(INSTANCE_HOST_STATUSES)
      .describe(
        "Its host as the listing's `hostStatus` says: `offline` while the host is unreachable (no heartbeat for 90 s; its minutes are not charged), `online`, `demo` (the demo host) or `none` (not placed)",
      ),
    hostOfflineSince: z
      .string()
      .nullable()
      .describe(
        "While `hostStatus` is `offline`: the host's last heartbeat, from when it is unreachable; null otherwise",
      ),
  })
  .meta({ id: 'Instance' });
export type PublicInstance = z.infer<typeof publicInstance>;

export const instanceAnswer = z.object({ instance: publicInstance });
export type InstanceAnswer = z.infer<typeof instanceAnswer>;
/** POST /instances: the instance and the launch's warnings (NO_SSH_KEY). */
export const createdInstanceAnswer = instanceAnswer.extend({ warnings: launchWarnings });
export type CreatedInstanceAnswer = z.infer<typeof createdInstanceAnswer>;
/** A stop, start or terminate: the instance, and a note when it waits for its host. */
export const instanceActionAnswer = instanceAnswer.extend({
  message: z
    .string()
    .nullable()
    .describe(
      'Set while its host is unreachable: the action was accepted and will run when the host is back; null otherwise',
    ),
});
export type InstanceActionAnswer = z.infer<typeof instanceActionAnswer>;

/**
 * A metered instance's deadlines and idle stop changed: a date and time sets a deadline, null
 * clears it; idleStopMinutes 0 turns idle stop off; a field left out stays as it is.
 */
export const updateInstanceBody = z
  .object({
    stopAt: deadlineAt('stopAt')
      .nullable()
      .optional()
      .describe('When it is stopped for you (its disk kept); null clears it.'),
    terminateAt: deadlineAt('terminateAt')
      .nullable()
      .optional()
      .describe(
        'When it is terminated for you (its disk deleted); null clears it. Not before its stop time (the one sent, else the one already set): 400 VALIDATION_FAILED otherwise, on terminateAt (or on stopAt when only a stop time after it is sent).',
      ),
    idleStopMinutes: idleMinutes('idleStopMinutes')
      .optional()
      .describe(
        'Metered only: stop it (its disk kept) once its GPUs stayed under idleThresholdPercent with no SSH session (one its host has seen open 2 minutes or more) and no web console open for this many minutes; 0 turns it off, otherwise 15 to 10080. Left out: as it is.',
      ),
    idleThresholdPercent: idleThreshold('idleThresholdPercent')
      .optional()
      .describe(
        'Metered only: GPU utilisation (percent, 1 to 100) under which it is idle. Default 5.',
      ),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: 'Send stopAt, terminateAt (null clears one), idleStopMinutes or idleThresholdPercent',
    path: ['stopAt'],
  })
  .refine(...deadlinesInOrder('stopAt', 'terminateAt'))
  .meta({
    id: 'UpdateInstance',
    examples: [{ stopAt: '2030-01-01T12:00:00Z', terminateAt: null }],
  });
export type UpdateInstanceBody = z.input<typeof updateInstanceBody>;

export const instancesQuery = z.object({
  status: z.enum(INSTANCE_STATES).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(TEXT_LIMITS.cursor).optional(),
});
export type InstancesQuery = z.input<typeof instancesQuery>;

export const instancesPage = z.object({
  instances: z.array(publicInstance),
  nextCursor: z.string().nullable(),
});
export type InstancesPage = z.infer<typeof instancesPage>;

export const instanceIdParam = z.object({ id: serialId });

// ---- Rentals (the documentation page's older reading) --------------------------------------

export const createPublicRentalBody = z.object({
  gpuListingId: bodySerialId,
  duration: hours.describe('Hours to book (1–720)'),
});
export const updatePublicRentalBody = z.object({
  action: z.literal('stop', { message: 'The only change a rental takes is "stop"' }),
});
export const rentalAnswer = z.object({ rental: rentalView });
/** POST /rentals: the rental and the launch's warnings (NO_SSH_KEY). */
export const createdRentalAnswer = rentalAnswer.extend({ warnings: launchWarnings });
export const rentalsList = z.object({ rentals: z.array(rentalView) });
export const rentalsQuery = z.object({
  status: z
    .enum(['active', 'completed', 'cancelled', 'all'])
    .default('active')
    .describe('Which rentals: the active ones (default), ended ones, or all'),
});

// ---- Provider ------------------------------------------------------------------------------

export const providerListingsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(TEXT_LIMITS.cursor).optional(),
});
export const providerListingsPage = z.object({
  listings: z.array(gpuListingView),
  nextCursor: z.string().nullable(),
});
export type ProviderListingsPage = z.infer<typeof providerListingsPage>;
/** A new listing of your provider profile: the web's add-listing body without providerId. */
export const providerCreateListingBody = newListingFields
  .omit({ providerId: true })
  .superRefine(matchesCatalogue)
  .meta({ id: 'NewListing' });
export type ProviderCreateListingBody = z.input<typeof providerCreateListingBody>;
export const providerUpdateListingBody = updateListingBody.meta({ id: 'ListingChanges' });
export const providerListingAnswer = z.object({ listing: gpuListingView });
export const providerHostsAnswer = z.object({ hosts: z.array(hostView) });
export type ProviderHostsAnswer = z.infer<typeof providerHostsAnswer>;

// ---- API keys (admin) ----------------------------------------------------------------------

export { apiKeyCapsBody, apiKeyIdParam, apiKeyView } from './api-keys';
