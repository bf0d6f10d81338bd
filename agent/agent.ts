import { mkdir } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  AGENT_WAIT_MAX_MS,
  type ContainerProbe,
  type DesiredInstance,
  type GpuInventory,
  type HeartbeatRequest,
} from '../shared/contracts/agent-protocol';
import type { CatalogueImage, ProvisioningProgress } from '../shared/contracts/images';
import { type AgentApi, ApiError } from './api-client';
import { FailedBoots } from './converge/failed-boots';
import { type Action, type ActualInstance, planConvergence } from './converge/plan';
import type { BootOptions, ImageInventory, InstanceDriver } from './driver';
import { ensureEnrolled } from './enrollment';
import { readAnswer, StatusWindow } from './heartbeat-pages';
import { fetchImageFor, progressReporter } from './image-progress';
import { InstanceReports } from './instance-reports';
import { readHostInventory } from './inventory/host';
import { probeReadiness } from './inventory/readiness';
import { SshSessionWatch } from './inventory/ssh-sessions';
import { readHostGpus } from './inventory/vfio-gpus';
import type { Log } from './log';
import { AGENT_VERSION, type AgentSettings } from './settings';

/**
 * The agent: enrols once, then heartbeats (inventory + what it runs) and converges on the
 * desired instances each answer carries, reporting every transition with its generation.
 * Its memory is the state folder: after a restart it adopts what runs instead of creating
 * it again.
 */
export class Agent {
  private desired: DesiredInstance[] = [];
  private readonly busy = new Set<string>();
  /** Boots in flight, cancellable when the server changes its mind meanwhile. */
  private readonly booting = new Map<string, { generation: number; abort: AbortController }>();
  /** Instances whose SSH this process has seen answer. */
  private readonly ready = new Set<string>();
  /** Each instance's last status and what the server was told of it. */
  private readonly reports: InstanceReports;
  private gpus: GpuInventory = { gpus: [], error: 'not read yet' };
  private gpusReadAt = Number.NEGATIVE_INFINITY;
  /** The container driver's facts, read with the GPUs; null on a host without containers. */
  private containerFacts: ContainerProbe | null = null;
  private converging = false;
  private convergeAgain = false;
  private heartbeatIntervalMs: number;
  /** Since when heartbeats fail (the server lost); null while they are answered. */
  private serverLostAt: number | null = null;
  /** Off once a server answers 404 to a wait (one older than the long poll). */
  private waitSupported = true;
  /** The image catalogue from the last heartbeat answer that carried one. */
  private catalogue: CatalogueImage[] = [];
  /** Which statuses the next heartbeat carries (all, unless there are too many for one). */
  private readonly statusWindow = new StatusWindow();
  /** The host's OS images: the driver's, since what an image is depends on how it runs them. */
  private readonly images: ImageInventory;
  /** Creates and starts that failed, with their reason and when each may be tried again. */
  private readonly failedBoots: FailedBoots;
  private readonly now: () => number;
  /** SSH sessions on running instances' ports, sampled at each heartbeat (idle stop). */
  private readonly sshSessions: SshSessionWatch;

  constructor(
    private readonly settings: AgentSettings,
    private readonly api: AgentApi,
    private readonly driver: InstanceDriver,
    private readonly log: Log,
  ) {
    this.heartbeatIntervalMs = settings.heartbeatIntervalMs;
    this.reports = new InstanceReports(driver, api, log, settings.publicHost ?? null);
    this.images = driver.images;
    this.failedBoots = new FailedBoots(settings.stateDir);
    this.now = settings.now ?? Date.now;
    this.sshSessions = new SshSessionWatch({
      now: this.now,
      ...(settings.sshSessionMinAgeMs === undefined
        ? {}
        : { minAgeMs: settings.sshSessionMinAgeMs }),
    });
  }

  async run(signal: AbortSignal): Promise<void> {
    await mkdir(this.settings.stateDir, { recursive: true, mode: 0o700 });
    const interval = await ensureEnrolled(this.settings, this.api, this.log, signal);
    if (interval) this.heartbeatIntervalMs = interval;
    await this.images.load();
    for (const failed of await this.failedBoots.load()) {
      this.reports.statuses.set(failed.status.id, failed.status);
    }
    for (const local of await this.driver.list()) {
      if (local.status) this.reports.statuses.set(local.id, local.status);
      // A failure kept only with the instance (by an agent before failed-boots.json): held too.
      const status = local.status;
      if (
        status?.state === 'failed' &&
        this.failedBoots.get(local.id)?.status.generation !== status.generation
      ) {
        await this.failedBoots.record(status, this.now());
      }
      // The field keeps the name log readers know it by.
      this.log('instance-found', { id: local.id, running: local.running, pid: local.runningAs });
    }
    while (!signal.aborted) {
      await this.heartbeat();
      await this.pause(signal);
    }
  }

  /**
   * Until the next heartbeat is due, or sooner when the server answers a wait with work (a
   * renter started, stopped or created something here): the host hears of it at once
   * instead of at its next heartbeat. A failed wait sleeps out the rest of the interval.
   */
  private async pause(signal: AbortSignal) {
    const due = Date.now() + this.heartbeatIntervalMs;
    while (this.waitSupported && !signal.aborted) {
      const left = due - Date.now();
      if (left <= 0) return;
      try {
        if (await this.api.wait(Math.min(left, AGENT_WAIT_MAX_MS), signal)) {
          this.log('work-waiting', {});
          return;
        }
      } catch (err) {
        // The agent being stopped aborts its wait: that is the normal way out, not a failure.
        if (signal.aborted) return;
        if (err instanceof ApiError && err.status === 404) this.waitSupported = false;
        else this.log('wait-failed', { error: (err as Error).message });
        break;
      }
    }
    const left = due - Date.now();
    if (left > 0) await sleep(left, undefined, { signal }).catch(() => {});
  }

  private async heartbeat() {
    try {
      if (Date.now() - this.gpusReadAt >= this.settings.updateIntervalMs) {
        this.gpus = await readHostGpus({ nvidiaSmi: this.settings.nvidiaSmi });
        this.containerFacts = (await this.settings.containerProbe?.()) ?? null;
        this.gpusReadAt = Date.now();
        if (this.gpus.error) this.log('gpu-inventory-error', { error: this.gpus.error });
      }
      const body: HeartbeatRequest = {
        agentVersion: AGENT_VERSION,
        sentAt: new Date().toISOString(),
        host: {
          ...(await readHostInventory(
            this.settings.stateDir,
            this.settings.accelerator,
            this.settings.guestMemoryMib ?? null,
          )),
          ...(this.settings.readiness
            ? {
                readiness: await probeReadiness(
                  this.settings.readiness,
                  this.gpus,
                  this.containerFacts,
                ),
              }
            : {}),
          ...(this.settings.drivers ? { drivers: this.settings.drivers } : {}),
        },
        gpus: this.gpus,
        // Each running one with its SSH sessions (idle stop).
        instances: await this.sshSessions.annotate(
          this.reports.statuses.values(),
          this.statusWindow.next([...this.reports.statuses.values()]),
        ),
        images: this.images.statuses(),
      };
      // A host with more instances than one answer lists reads the rest in pages, at once.
      const {
        answer: res,
        instances,
        complete,
      } = await readAnswer(
        (cursor) => this.api.heartbeat(cursor === undefined ? body : { ...body, cursor }),
        this.desired,
      );
      if (this.serverLostAt !== null) {
        // Said once, when heartbeats are answered again after failing.
        this.log('server-reconnected', { unreachableMs: Date.now() - this.serverLostAt });
        this.serverLostAt = null;
      }
      if (res.heartbeatIntervalMs) this.heartbeatIntervalMs = res.heartbeatIntervalMs;
      if (res.publicAddress) this.reports.publicAddress = res.publicAddress;
      if (res.images) this.catalogue = res.images;
      this.desired = instances;
      if (!complete) this.log('heartbeat-pages-left', { read: instances.length });
      const listed = new Map(instances.map((d) => [d.id, d.generation]));
      // A failure stops holding its instance back once the server wants something newer of it.
      await this.failedBoots.forget(({ status }) => {
        const generation = listed.get(status.id);
        return generation === undefined ? !complete : generation === status.generation;
      });
      for (const [id, status] of complete ? this.reports.statuses : []) {
        if (status.state === 'terminated' && !listed.has(id)) {
          this.reports.forget(id);
        }
      }
    } catch (err) {
      // Keep converging on the last answer; the next heartbeat tries again.
      this.log('heartbeat-failed', { error: (err as Error).message });
      this.serverLostAt ??= Date.now();
    }
    await this.converge();
  }

  /** Plans and starts actions; plans again whenever an action finishes. */
  async converge(): Promise<void> {
    if (this.converging) {
      this.convergeAgain = true;
      return;
    }
    this.converging = true;
    try {
      do {
        this.convergeAgain = false;
        // Busy as of before the folder scan: an action that ends during the scan may have
        // changed what the scan saw (its end sets convergeAgain, so the next round sees it).
        const busy = new Set(this.busy);
        const local = await this.driver.list();
        const actual: ActualInstance[] = local.map((l) => {
          if (!l.running && !busy.has(l.id)) this.ready.delete(l.id);
          return {
            id: l.id,
            phase: !l.running ? 'stopped' : this.ready.has(l.id) ? 'running' : 'booting',
          };
        });
        this.cancelSupersededBoots();
        const held = this.failedBoots.held(this.now());
        for (const action of planConvergence(
          this.desired,
          actual,
          this.reports.reported,
          busy,
          held,
        )) {
          this.execute(action);
        }
      } while (this.convergeAgain);
    } catch (err) {
      this.log('converge-failed', { error: (err as Error).message });
    } finally {
      this.converging = false;
    }
  }

  /** A boot whose instance should no longer run (stop or terminate while creating) ends now. */
  private cancelSupersededBoots() {
    for (const [id, boot] of this.booting) {
      const d = this.desired.find((x) => x.id === id);
      if (d && d.state !== 'running' && d.generation > boot.generation) boot.abort.abort();
    }
  }

  private execute(action: Action) {
    const id = action.kind === 'stop-orphan' ? action.id : action.desired.id;
    this.busy.add(id);
    this.log('action', { kind: action.kind, id });
    void this.perform(action)
      .catch((err: Error) =>
        this.log('action-failed', { kind: action.kind, id, error: err.message }),
      )
      .finally(() => {
        this.busy.delete(id);
        void this.converge();
      });
  }

  private async perform(action: Action) {
    switch (action.kind) {
      case 'create':
      case 'start':
      case 'await-ready': {
        const d = action.desired;
        const started = Date.now();
        const abort = new AbortController();
        this.booting.set(d.id, { generation: d.generation, abort });
        /** The image handed out for the instance's disk: held until the boot ends. */
        let backing: string | null = null;
        // A host set up to boot its own test guest ignores catalogue images.
        const image = this.settings.catalogueImages === false ? null : (d.image ?? null);
        // Its catalogue entry as this boot began (undefined: the catalogue does not list it).
        const entry = image ? this.catalogue.find((i) => i.name === image) : undefined;
        const firmware = entry?.firmware;
        try {
          const state = action.kind === 'create' ? 'provisioning' : 'starting';
          const downloading = entry !== undefined && !this.images.holds(entry);
          const first: ProvisioningProgress = {
            step: downloading ? 'downloading-image' : 'booting',
            percent: downloading ? 0 : null,
          };
          if (action.kind === 'await-ready') {
            this.log('adopting', { id: d.id });
          } else {
            await this.reports.transition(d, state, null, null, first);
          }
          // A driver that fetches what it runs itself (a container's image) reports through it.
          const progress = progressReporter(d, state, this.reports, first);
          const options: BootOptions = {
            gpus: this.gpus.gpus,
            signal: abort.signal,
            progress: (p) => progress.show(p),
            // Asked only while the instance has no disk yet (create, or a start after a
            // create that failed before its disk existed).
            ...(image
              ? {
                  image: async () => {
                    backing = await fetchImageFor(
                      d,
                      state,
                      entry,
                      this.images,
                      this.reports,
                      abort.signal,
                    );
                    return backing;
                  },
                  ...(firmware ? { firmware } : {}),
                }
              : {}),
          };
          const endpoints =
            action.kind === 'await-ready'
              ? await this.driver.awaitReady(d, abort.signal)
              : action.kind === 'create'
                ? await this.driver.create(d, options)
                : await this.driver.start(d, options);
          await progress.settled();
          this.ready.add(d.id);
          await this.failedBoots.forget((b) => b.status.id !== d.id);
          this.log('ssh-ready', {
            id: d.id,
            ms: Date.now() - started,
            sshPort: endpoints.ssh?.port,
          });
          await this.reports.transition(d, 'running', endpoints);
        } catch (err) {
          if (abort.signal.aborted) {
            // Superseded: the next plan stops or terminates it under the newer generation.
            this.log('boot-superseded', { id: d.id, generation: d.generation });
            return;
          }
          await this.driver.forceOff(d.id).catch(() => {});
          await this.reports.transition(d, 'failed', null, (err as Error).message);
          // Kept by the agent, not only with the instance: a boot can fail before the host
          // has made anything of it, and would otherwise be planned again at once.
          const failed = this.reports.statuses.get(d.id);
          if (failed?.state === 'failed' && failed.generation === d.generation) {
            const { attempts, retryAt } = await this.failedBoots.record(failed, this.now());
            this.log('boot-retry-later', {
              id: d.id,
              generation: d.generation,
              attempts,
              retryInMs: retryAt - this.now(),
            });
          }
        } finally {
          this.booting.delete(d.id);
          if (backing) this.images.release(backing);
        }
        return;
      }
      case 'stop': {
        const d = action.desired;
        await this.reports.transition(d, 'stopping');
        await this.driver.stop(d.id);
        this.ready.delete(d.id);
        await this.reports.transition(d, 'stopped');
        return;
      }
      case 'terminate': {
        const d = action.desired;
        await this.reports.transition(d, 'terminating');
        await this.driver.terminate(d.id);
        this.ready.delete(d.id);
        await this.reports.transition(d, 'terminated');
        return;
      }
      case 'stop-orphan':
        this.log('orphan', {
          id: action.id,
          note: 'not listed by the server: stopping, disk kept',
        });
        await this.driver.stop(action.id);
        this.ready.delete(action.id);
        return;
      case 'report': {
        const d = action.desired;
        const endpoints =
          action.state === 'running' ? await this.driver.endpoints(d.id, d.sshUser) : null;
        const error =
          action.state === 'failed' ? (this.reports.statuses.get(d.id)?.error ?? null) : null;
        await this.reports.transition(d, action.state, endpoints, error);
        return;
      }
    }
  }
}
