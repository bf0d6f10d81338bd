import { z } from 'zod';
import { INSTANCE_STATES } from '../rules/instance-lifecycle';
import { DEFAULT_VM_TEMPLATE, VM_LIMITS, VM_TEMPLATES } from '../vm-options';
import { deadlineAt, deadlinesInOrder } from './deadlines';
import { idleMinutes, idleThreshold } from './idle-stop';
import { INSTANCE_KINDS, instanceKind, ociReference } from './instance-kind';
import { launchWarnings } from './launch-warnings';
import { INSTANCE_HOST_STATUSES } from './listings';

/**
 * The VM dashboard's API, in the snake_case words its screens were drawn with (docs/rules.md,
 * Screens and texts). VMs are metered instances (docs/decisions/007); the presenter turns
 * lifecycle states into the dashboard's status words.
 */

export {
  DEFAULT_VM_GPU,
  DEFAULT_VM_TEMPLATE,
  VM_LIMITS,
  VM_POLL_MS,
  VM_TEMPLATE_LABELS,
  VM_TEMPLATES,
  type VmTemplate,
} from '../vm-options';

const bounded = (field: keyof typeof VM_LIMITS, unit: string) => {
  const { min, max } = VM_LIMITS[field];
  const message = `${field} must be a whole number from ${min} to ${max}${unit}`;
  return z.number({ message }).int({ message }).min(min, { message }).max(max, { message });
};

/** The create form's fields; createVmBody adds the checks across them. */
const createVmFields = z.object({
  /**
   * What runs it (docs/decisions/025): a virtual machine (the default) or a container on its
   * host's own NVIDIA driver. The listing's host must offer the kind (its `kinds`).
   */
  kind: instanceKind.default('vm'),
  /**
   * kind container only: the OCI image it runs (`pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime`).
   * Left out: the template's image (CONTAINER_TEMPLATE_IMAGES). Its host resolves the digest.
   */
  image: ociReference.optional(),
  gpu_type: z
    .string({ message: 'gpu_type must be a GPU type' })
    .trim()
    .min(1, { message: 'gpu_type must be a GPU type' })
    .max(100, { message: 'gpu_type must be a GPU type' })
    .optional(),
  /**
   * Named: at most the GPU's share of its host (else 400 naming the maximum). Left out: the
   * default (4 vCPUs, 16 GB), fitted to the share.
   */
  cpu_cores: bounded('cpu_cores', '').optional(),
  ram_gb: bounded('ram_gb', ' GB').optional(),
  disk_gb: bounded('disk_gb', ' GB').default(VM_LIMITS.disk_gb.default),
  /**
   * The listing to run on (one of gpu_type's, when gpu_type is named too). Left out: the
   * cheapest rentable listing of gpu_type, a provider's host before the demo host at the same
   * price.
   */
  gpu_listing_id: z
    .number({ message: 'gpu_listing_id must be a listing id' })
    .int({ message: 'gpu_listing_id must be a listing id' })
    .positive({ message: 'gpu_listing_id must be a listing id' })
    .max(2_147_483_647, { message: 'gpu_listing_id must be a listing id' })
    .optional(),
  template: z
    .enum(VM_TEMPLATES, { message: 'template must be ubuntu22 or windows11' })
    .default(DEFAULT_VM_TEMPLATE),
  /** When the worker stops it (its disk kept): in the future, within a year. */
  stop_at: deadlineAt('stop_at').optional(),
  /**
   * When the worker terminates it (its disk deleted): in the future, within a year, not before
   * stop_at.
   */
  terminate_at: deadlineAt('terminate_at').optional(),
  /** Idle stop (docs/decisions/019): minutes (0: off); left out, the account default. */
  idle_stop_minutes: idleMinutes('idle_stop_minutes').optional(),
  /** GPU utilisation under which it is idle, in percent; left out, the account default. */
  idle_threshold_percent: idleThreshold('idle_threshold_percent').optional(),
});
export const createVmBody = createVmFields.refine(...deadlinesInOrder('stop_at', 'terminate_at'));
/** What the create form sends. */
export type CreateVmBody = z.input<typeof createVmBody>;
export type CreateVmInput = z.output<typeof createVmBody>;

/**
 * A VM's deadlines and idle stop changed later: a date and time sets a deadline, null clears
 * it; idle_stop_minutes 0 turns idle stop off; a field left out stays as it is.
 */
export const updateVmDeadlinesBody = z
  .object({
    stop_at: deadlineAt('stop_at').nullable().optional(),
    terminate_at: deadlineAt('terminate_at').nullable().optional(),
    idle_stop_minutes: idleMinutes('idle_stop_minutes').optional(),
    idle_threshold_percent: idleThreshold('idle_threshold_percent').optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message:
      'Send stop_at, terminate_at (null clears one), idle_stop_minutes or idle_threshold_percent',
    path: ['stop_at'],
  })
  .refine(...deadlinesInOrder('stop_at', 'terminate_at'));
export type UpdateVmDeadlinesBody = z.input<typeof updateVmDeadlinesBody>;

/**
 * A VM's status: the dashboard's four words (creating is provisioning), and every other state as
 * itself (starting, stopping, terminating, failed), never hidden behind the word it is on
 * its way to (docs/decisions/018). The dashboard shows those others grey.
 */
export const VM_STATUSES = [
  'creating',
  'running',
  'stopped',
  'terminated',
  'starting',
  'stopping',
  'terminating',
  'failed',
] as const;
export type VmStatus = (typeof VM_STATUSES)[number];

export const gpuUtilization = z.object({
  /** Percent of the GPU in use; null: unknown (nvidia-smi said "[N/A]"), never 0. */
  gpu_usage: z.number().nullable(),
  /** Percent of the GPU's memory in use; null: unknown. */
  memory_usage: z.number().nullable(),
  /** Degrees Celsius (the bar reads it as a percentage of 100); null: unknown. */
  temperature: z.number().nullable(),
  /** true on a demo host: the figures are made up, not read from nvidia-smi. */
  simulated: z.boolean(),
  /** When the host reported them (its last heartbeat); null when simulated. */
  measured_at: z.string().nullable(),
  /** true while its host is unreachable: the figures are its last report, not what runs now. */
  stale: z.boolean(),
});
export type GpuUtilization = z.infer<typeof gpuUtilization>;

export const vmConnectionInfo = z.object({
  ssh_command: z.string(),
  /**
   * The guest's SSH host key fingerprint (`SHA256:…`, as `ssh-keygen -lf` prints it), computed
   * by the server from the key its host reported; null where the host reported none.
   */
  ssh_host_key_fingerprint: z.string().nullable(),
  /** host:port of the VNC console; null where the host offers none (demo hosts). */
  vnc_url: z.string().nullable(),
  /** The web console's page (opened in a new tab). */
  web_console: z.string(),
  /** null when the host has not reported readings for the instance's GPU yet. */
  gpu_utilization: gpuUtilization.nullable(),
});

export const vmInstanceView = z.object({
  vm_id: z.number(),
  gpu_type: z.string(),
  /** The GPU's memory in GB. */
  gpu_memory: z.number(),
  cpu_cores: z.number(),
  ram_gb: z.number(),
  disk_gb: z.number(),
  template: z.string().nullable(),
  /** Where it came from: vm (this dashboard), deploy (Instant Deploy) or api. */
  source: z.string(),
  /** What runs it: a virtual machine or a container (docs/decisions/025). */
  kind: z.enum(INSTANCE_KINDS),
  /** A container's image as asked for; null for a VM. */
  image: z.string().nullable(),
  /** A container's image digest (`sha256:…`) as its host resolved it; null until then, and for a VM. */
  image_digest: z.string().nullable(),
  status: z.enum(VM_STATUSES),
  /** The lifecycle state (shared/rules/instance-lifecycle.ts): the buttons read it. */
  state: z.enum(INSTANCE_STATES),
  created_at: z.string(),
  /** When it last became running; null unless it runs now. */
  started_at: z.string().nullable(),
  /**
   * The minutes of compute it has run and been charged for, all its runs together (a stopped
   * instance's "ran for"); 0 before it was first ready.
   */
  ran_minutes: z.number().int(),
  hourly_rate: z.string(),
  /** What it has been charged so far (compute and storage), in dollars. */
  total_cost: z.string(),
  /**
   * Beside the cost while its compute is not charged (shared/rules/compute-billing.ts):
   * "provisioning — not charged" until it is first ready, "starting — not charged", "host
   * unreachable — not charged"; null while charged as it runs, stopped or ended.
   */
  compute_charge_note: z.string().nullable(),
  is_demo_host: z.boolean(),
  /** Why it ended or was stopped by the system (insufficient_credits, host_failed, …). */
  end_reason: z.string().nullable(),
  /** When the worker stops it (its renter's deadline); null: none, or it has ended. */
  stop_at: z.string().nullable(),
  /** When the worker terminates it (its renter's deadline); null: none, or it has ended. */
  terminate_at: z.string().nullable(),
  /** Idle stop's minutes (0: off) and threshold (docs/decisions/019). */
  idle_stop_minutes: z.number(),
  idle_threshold_percent: z.number(),
  /** While running with idle stop on: when it is stopped if it stays idle. */
  idle_stop_at: z.string().nullable(),
  /** When its renter was warned it is idle (the card's banner); null once active again. */
  idle_warned_at: z.string().nullable(),
  /** Why it failed, in its host's words; null unless its state is failed and the host said. */
  failure_reason: z.string().nullable(),
  /** Only while running and the host has reported how to reach it. */
  connection_info: vmConnectionInfo.nullable(),
  /** While creating or starting: its host's step ("downloading image (42%)", "booting"), or null. */
  provisioning_step: z.string().nullable(),
  /** Its host as the listing's `hostStatus` says: offline while unreachable (not charged then). */
  host_status: z.enum(INSTANCE_HOST_STATUSES),
  /** While offline: the host's last heartbeat, from when it is unreachable; null otherwise. */
  host_offline_since: z.string().nullable(),
});
export type VmInstanceView = z.infer<typeof vmInstanceView>;

/** POST /api/kvm/instances: the new VM and what the renter should know about it (no SSH key). */
export const launchedVmView = vmInstanceView.extend({ warnings: launchWarnings });
export type LaunchedVmView = z.infer<typeof launchedVmView>;
/** A start, stop or terminate: the VM, and a note when it waits for its host. */
export const vmActionAnswer = vmInstanceView.extend({
  /** Set while its host is unreachable: accepted, and will run when the host is back. */
  message: z.string().nullable(),
});
export type VmActionAnswer = z.infer<typeof vmActionAnswer>;

/** A listing a VM of a GPU type can run on, as the create form offers it. */
export const vmListingChoice = z.object({
  listing_id: z.number(),
  hourly_rate: z.string(),
  provider_name: z.string(),
  location: z.string(),
  /** Runs on the demo host (nothing real), else on its provider's host. */
  is_demo_host: z.boolean(),
  /** The kinds of instance its host can run now (a create of another kind is refused). */
  kinds: z.array(z.enum(INSTANCE_KINDS)),
  /** One GPU's share of its host: the most a VM there may ask (shared/rules/gpu-share.ts). */
  max_cpu_cores: z.number().nullable(),
  max_ram_gb: z.number().nullable(),
});
export type VmListingChoice = z.infer<typeof vmListingChoice>;

export const gpuOffering = z.object({
  gpu_type: z.string(),
  memory_gb: z.number(),
  /** The lowest rate a rentable listing of this type asks (the lowest listed when none is). */
  hourly_rate: z.string(),
  is_available: z.boolean(),
  /**
   * The rentable listings of the type in the order a create without gpu_listing_id tries them:
   * cheapest first, a provider's host before the demo host at the same price. The first is
   * where such a create runs.
   */
  listings: z.array(vmListingChoice),
});
export type GpuOffering = z.infer<typeof gpuOffering>;

export const vmTemplateOption = z.object({
  id: z.enum(VM_TEMPLATES),
  name: z.string(),
  available: z.boolean(),
  /** Why it cannot be chosen; null when it can. */
  reason: z.string().nullable(),
});
export type VmTemplateOption = z.infer<typeof vmTemplateOption>;

export const billingSummary = z.object({
  /** Everything the user's VMs have been charged (dollars). */
  total_amount: z.string(),
  /**
   * Used but not yet charged (dollars): minutes are charged in advance from prepaid credits,
   * so this is only what the worker has yet to charge for minutes already begun.
   */
  unpaid_amount: z.string(),
  /** Hours the user's VMs have run (compute minutes ÷ 60). */
  total_hours: z.number(),
});
export type BillingSummary = z.infer<typeof billingSummary>;
