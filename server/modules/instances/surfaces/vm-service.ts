import type {
  BillingSummary,
  CreateVmInput,
  GpuOffering,
  UpdateVmDeadlinesBody,
  VmInstanceView,
  VmTemplateOption,
} from '../../../../shared/contracts/kvm';
import {
  DEFAULT_VM_GPU,
  VM_LIMITS,
  VM_TEMPLATE_LABELS,
  VM_TEMPLATES,
  type VmListingChoice,
} from '../../../../shared/contracts/kvm';
import { MINUTE_MS, minuteChargeMicros } from '../../../../shared/rules/metering';
import { microsToDollars } from '../../../../shared/rules/money';
import type { Db } from '../../../db/client';
import { AppError, notFound, validationFailed } from '../../../lib/errors';
import type { HostsService } from '../../hosts/service';
import { heldImages, type Images, imageOfTemplate } from '../../images/catalogue';
import { listingsService } from '../../listings/service';
import { imageUnavailable, imageUnavailableReason } from '../image-offer';
import { presentVm } from '../reads/vm-presenter';
import type { InstanceRow, InstancesService } from '../service';
import type { RentOptions } from '../types';
import { listingChoice, VM_DEADLINE_FIELDS, vmDeadlines, vmIdleStop } from './vm-request';

export {
  imageUnavailable,
  offersTemplate,
  WINDOWS_UNAVAILABLE_REASON,
} from '../image-offer';
export { VM_DEADLINE_FIELDS } from './vm-request';

/**
 * The VM dashboard (/vm-dashboard) over the instances listed as machines: GPU types from real
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
    return listingsService.vmCandidates(db, {
      ...(model === undefined ? {} : { model }),
      ...(await sandboxOf(userId)),
    });
  }

  /**
   * The GPU type a create asks for: the named listing's (gpu_type, when named too, must be its
   * model; another user's sandbox listing is not found), else gpu_type or the default.
   */
  async function gpuTypeOf(userId: string, body: CreateVmInput): Promise<string> {
    if (body.gpu_listing_id === undefined) return body.gpu_type ?? DEFAULT_VM_GPU;
    const [row] = await listingsService.vmCandidates(db, {
      id: body.gpu_listing_id,
      ...(await sandboxOf(userId)),
    });
    if (!row) throw notFound('GPU listing');
    if (body.gpu_type !== undefined && body.gpu_type !== row.model) {
      throw validationFailed({
        gpu_listing_id: [`Listing ${row.id} offers ${row.model}, not ${body.gpu_type}`],
      });
    }
    return row.model;
  }

  async function sandboxOf(userId: string) {
    const viewerSandboxId = await listingsService.sandboxProviderOf(db, userId);
    return viewerSandboxId === undefined ? {} : { viewerSandboxId };
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
      const byModel = new Map<
        string,
        { memoryGb: number; rate: bigint; available: boolean; listings: VmListingChoice[] }
      >();
      for (const row of await candidates(userId)) {
        const seen = byModel.get(row.model) ?? {
          memoryGb: row.memoryGb,
          rate: row.hourlyRateMicros,
          available: false,
          listings: [],
        };
        // Rows come cheapest first: the first rentable one sets the type's rate.
        if (row.rentable && !seen.available) {
          seen.rate = row.hourlyRateMicros;
          seen.available = true;
        }
        if (row.rentable) seen.listings.push(listingChoice(row));
        byModel.set(row.model, seen);
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
          listings: o.listings,
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
      const gpuType = await gpuTypeOf(userId, body);
      const shape = {
        cpus: body.cpu_cores ?? VM_LIMITS.cpu_cores.default,
        memoryGb: body.ram_gb ?? VM_LIMITS.ram_gb.default,
      };
      const askedShape = {
        ...(body.cpu_cores !== undefined ? { cpus: body.cpu_cores } : {}),
        ...(body.ram_gb !== undefined ? { memoryGb: body.ram_gb } : {}),
      };
      return instances.launch(
        {
          userId,
          source: 'vm',
          kind: body.kind,
          ...(body.image !== undefined ? { image: body.image } : {}),
          listing:
            body.gpu_listing_id !== undefined
              ? { id: body.gpu_listing_id }
              : {
                  gpuType,
                  words: {
                    notOffered: () =>
                      validationFailed({ gpu_type: [`No ${gpuType} GPU is offered`] }),
                    soldOut: () =>
                      new AppError(
                        409,
                        'CAPACITY_UNAVAILABLE',
                        `No ${gpuType} is free right now. Choose another GPU type or try again later.`,
                        { gpu_type: gpuType },
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
          shape,
          askedShape,
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
        { userId, shows: 'machine' },
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
          instance.status === 'running', // compute from ready (issue 39)
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
