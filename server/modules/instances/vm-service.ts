import type {
  BillingSummary,
  CreateVmInput,
  GpuOffering,
  UpdateVmDeadlinesBody,
  VmInstanceView,
  VmTemplateOption,
} from '../../../shared/contracts/kvm';
import { VM_TEMPLATE_LABELS, VM_TEMPLATES } from '../../../shared/contracts/kvm';
import { holdsUnit, type InstanceState } from '../../../shared/rules/instance-lifecycle';
import { MINUTE_MS, minuteChargeMicros } from '../../../shared/rules/metering';
import { microsToDollars } from '../../../shared/rules/money';
import type { Db } from '../../db/client';
import { AppError, validationFailed } from '../../lib/errors';
import type { HostsService } from '../hosts/service';
import { heldImages, type Images, imageOfTemplate } from '../images/catalogue';
import { listingsService } from '../listings/service';
import { requestedDeadlines } from './deadlines-presenter';
import { requestedIdleStop } from './idle-presenter';
import { imageUnavailable, imageUnavailableReason } from './image-offer';
import type { InstanceRow, InstancesService } from './service';
import type { RentOptions } from './types';
import { presentVm } from './vm-presenter';

export {
  imageUnavailable,
  offersTemplate,
  WINDOWS_UNAVAILABLE_REASON,
} from './image-offer';

/** How the VM dashboard names the deadlines in its 400s. */
export const VM_DEADLINE_FIELDS = { stopAt: 'stop_at', terminateAt: 'terminate_at' } as const;

/** The deadlines a VM request names (a time sets one, null clears it, absent leaves it). */
const vmDeadlines = (body: { stop_at?: string | null; terminate_at?: string | null }) =>
  requestedDeadlines(body.stop_at, body.terminate_at);

/** The idle stop a VM request names (a field left out: the account default or as it is). */
const vmIdleStop = (body: { idle_stop_minutes?: number; idle_threshold_percent?: number }) =>
  requestedIdleStop(body.idle_stop_minutes, body.idle_threshold_percent);

/**
 * The VM dashboard (spec part 2, /vm-dashboard) over metered instances: GPU types from real
 * listings, a create that picks the cheapest rentable listing of a type, the user's VMs with
 * their hosts' GPU readings, and what they cost.
 */
export function createVmService(deps: {
  db: Db;
  instances: InstancesService;
  hosts: Pick<HostsService, 'gpuReadings'>;
  images: Images;
}) {
  const { db, instances, hosts, images } = deps;

  async function candidates(userId: string, model?: string) {
    const viewerSandboxId = await listingsService.sandboxProviderOf(db, userId);
    return listingsService.vmCandidates(db, {
      ...(model === undefined ? {} : { model }),
      ...(viewerSandboxId === undefined ? {} : { viewerSandboxId }),
    });
  }

  async function present(rows: InstanceRow[], now: Date): Promise<VmInstanceView[]> {
    const hostIds = rows.flatMap((r) =>
      r.instance.status === 'running' && r.instance.hostId ? [r.instance.hostId] : [],
    );
    const readings = await hosts.gpuReadings(hostIds);
    return rows.map((r) =>
      presentVm(r, r.instance.hostId ? readings.get(r.instance.hostId) : undefined, now),
    );
  }

  async function presentOne(row: InstanceRow, now: Date): Promise<VmInstanceView> {
    const [view] = await present([row], now);
    if (!view) throw new Error('nothing to present');
    return view;
  }

  return {
    present: presentOne,

    /**
     * One entry per GPU type the user could see: the lowest rate among listings that can be
     * rented now (else the lowest listed), its memory, and whether any can be rented now.
     */
    async offerings(userId: string): Promise<GpuOffering[]> {
      const byModel = new Map<string, { memoryGb: number; rate: bigint; available: boolean }>();
      for (const row of await candidates(userId)) {
        const seen = byModel.get(row.model);
        if (!seen) {
          byModel.set(row.model, {
            memoryGb: row.memoryGb,
            rate: row.hourlyRateMicros,
            available: row.rentable,
          });
        } else if (row.rentable && !seen.available) {
          // Rows come cheapest first: the first rentable one sets the type's rate.
          byModel.set(row.model, { ...seen, rate: row.hourlyRateMicros, available: true });
        }
      }
      return [...byModel.entries()]
        .sort(([a, x], [b, y]) =>
          x.rate === y.rate ? a.localeCompare(b) : x.rate < y.rate ? -1 : 1,
        )
        .map(([model, o]) => ({
          gpu_type: model,
          memory_gb: o.memoryGb,
          hourly_rate: microsToDollars(o.rate),
          is_available: o.available,
        }));
    },

    /**
     * Each image template, available where its image can be had: the catalogue gives it a
     * source (every host can fetch it: ubuntu22), or a rentable listing's host holds it
     * (windows11 only there; docs/decisions/015-os-images.md).
     */
    async templates(userId: string): Promise<VmTemplateOption[]> {
      const rentable = (await candidates(userId)).filter((r) => r.rentable);
      return VM_TEMPLATES.map((id) => {
        const image = imageOfTemplate(id);
        const available =
          images.fetchable(image) || rentable.some((r) => heldImages(r.heldImages).includes(image));
        return {
          id,
          name: VM_TEMPLATE_LABELS[id],
          available,
          reason: available ? null : imageUnavailableReason(id),
        };
      });
    },

    /**
     * Creates a VM (commands/launch.ts) on the cheapest rentable listing of the GPU type whose host holds or can
     * fetch the template's image (409 where none), with a fresh platform key pair for the web
     * console.
     */
    async create(userId: string, body: CreateVmInput, now: Date, options: RentOptions = {}) {
      return instances.launch(
        {
          userId,
          source: 'vm',
          listing: {
            gpuType: body.gpu_type,
            words: {
              notOffered: () =>
                validationFailed({ gpu_type: [`No ${body.gpu_type} GPU is offered`] }),
              soldOut: () =>
                new AppError(
                  409,
                  'CAPACITY_UNAVAILABLE',
                  `No ${body.gpu_type} is free right now. Choose another GPU type or try again later.`,
                  { gpu_type: body.gpu_type },
                ),
              noImage: () => imageUnavailable(body.template),
              taken: (error) => error,
              soldOutFirst: false,
            },
          },
          plan: {
            name: 'metered',
            storageGb: body.disk_gb,
            deadlines: vmDeadlines(body),
            deadlineFields: VM_DEADLINE_FIELDS,
            idleStop: vmIdleStop(body),
          },
          template: body.template,
          shape: { cpus: body.cpu_cores, memoryGb: body.ram_gb },
          record: async () => options.record,
        },
        now,
      );
    },

    /**
     * Sets or clears a VM's "stop at" and "terminate at" (commands/deadlines.ts) and its idle
     * stop (commands/idle-stop.ts): each part the body names.
     */
    async setDeadlines(
      userId: string,
      id: number,
      body: UpdateVmDeadlinesBody,
      now: Date,
    ): Promise<VmInstanceView> {
      const row = await instances.setSchedule(
        { userId, plan: 'metered' },
        id,
        { deadlines: vmDeadlines(body), idle: vmIdleStop(body) },
        now,
        VM_DEADLINE_FIELDS,
      );
      return presentOne(row, now);
    },

    /** The user's metered instances (VMs, deploys, API instances), newest first. */
    async list(userId: string, now: Date): Promise<VmInstanceView[]> {
      return present(await instances.listMeteredByUser(userId), now);
    },

    /**
     * What the user's metered instances have cost. Minutes are charged in advance from prepaid
     * credits, so "unpaid" is only what minutes already begun will cost once the worker
     * charges them (zero right after each run; never a debt).
     */
    async billing(userId: string, now: Date): Promise<BillingSummary> {
      let total = 0n;
      let unpaid = 0n;
      let minutes = 0;
      for (const { instance } of await instances.listMeteredByUser(userId)) {
        total += instance.chargedMicros;
        minutes += instance.computeMinutes;
        const paidThrough = instance.paidThrough;
        if (instance.endTime !== null || instance.unreachableSince !== null || !paidThrough)
          continue;
        if (paidThrough >= now) continue;
        const due = Math.ceil((now.getTime() - paidThrough.getTime()) / MINUTE_MS);
        const { computeMicros, storageMicros } = minuteChargeMicros(
          instance.hourlyRateMicros,
          instance.storageGb,
          holdsUnit(instance.status as InstanceState),
        );
        unpaid += BigInt(due) * (computeMicros + storageMicros);
      }
      return {
        total_amount: microsToDollars(total),
        unpaid_amount: microsToDollars(unpaid),
        total_hours: Math.round((minutes / 60) * 100) / 100,
      };
    },
  };
}

export type VmService = ReturnType<typeof createVmService>;
