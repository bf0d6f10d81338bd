import { mkdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  AGENT_WAIT_MAX_MS,
  type DesiredInstance,
  type GpuInventory,
  type HeartbeatRequest,
  type InstanceReportState,
  type InstanceStatus,
} from '../shared/contracts/agent-protocol';
import {
  type CatalogueImage,
  fetchedPercent,
  type ProvisioningProgress,
} from '../shared/contracts/images';
import { type AgentApi, ApiError } from './api-client';
import { FailedBoots } from './converge/failed-boots';
import {
  type Action,
  type ActualInstance,
  type LastReport,
  planConvergence,
} from './converge/plan';
import { loadCredential, saveCredential } from './credential';
import type { BootOptions, Endpoints, ImageInventory, InstanceDriver } from './driver';
import { readAnswer, StatusWindow } from './heartbeat-pages';
import type { Accelerator } from './inventory/host';
import { readHostInventory } from './inventory/host';
import { readGpuInventory } from './inventory/nvidia-smi';
import { type ProbeOptions, probeReadiness } from './inventory/readiness';
import { SshSessionWatch } from './inventory/ssh-sessions';
import type { Log } from './log';

export const AGENT_VERSION = '0.1.0';

export interface AgentSettings {
  serverUrl: string;
  stateDir: string;
  enrollToken: string | null;
  /**
   * AGENT_ENROLL_TOKEN_FILE: a 0600 file holding the one-time token (how the installer passes
   * it, never on a command line); read at enrolment and deleted once a credential is stored.
   */
  enrollTokenFile?: string | null;
  heartbeatIntervalMs: number;
  updateIntervalMs: number;
  nvidiaSmi: string;
  accelerator: Accelerator;
  /** AGENT_GUEST_MEMORY_MIB: memory all guests may use together, reported in the inventory. */
  guestMemoryMib?: number | null;
  /** AGENT_PUBLIC_HOST; null: the address the server names in its heartbeat answers. */
  publicHost?: string | null;
  /**
   * false: instances boot the host's configured guest (AGENT_GUEST_KERNEL, the busybox test
   * guest, with AGENT_BASE_IMAGE or a blank disk) whatever catalogue image they name.
   */
  catalogueImages?: boolean;
  /**
   * How the host's readiness facts are read (agent/inventory/readiness.ts); each heartbeat
   * carries them and the server judges them (docs/decisions/021). Absent: none are sent.
   */
  readiness?: ProbeOptions;
  /** The clock failed boots' retries are timed by (ms); tests move it. Default: Date.now. */
  now?: () => number;
  /**
   * How long an SSH connection must stay open to count as a session for idle stop
   * (agent/inventory/ssh-sessions.ts; default 2 minutes). Tests shorten it.
   */
  sshSessionMinAgeMs?: number;
}

/** A downloading instance's progress is reported at most this often, or every 10 points. */
const PROGRESS_REPORT_MS = 5000;
const PROGRESS_REPORT_POINTS = 10;

export class EnrollmentError extends Error {
  override name = 'EnrollmentError';
}

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
  private readonly reported = new Map<string, LastReport>();
  /** The last status of every instance, terminated ones until the server stops listing them. */
  private readonly statuses = new Map<string, InstanceStatus>();
  private gpus: GpuInventory = { gpus: [], error: 'not read yet' };
  private gpusReadAt = Number.NEGATIVE_INFINITY;
  private converging = false;
  private convergeAgain = false;
  private heartbeatIntervalMs: number;
  /** The address the server knows this host by (its heartbeat answer's publicAddress). */
  private publicAddress: string | null = null;
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
    await this.ensureEnrolled(signal);
    await this.images.load();
    for (const failed of await this.failedBoots.load()) {
      this.statuses.set(failed.status.id, failed.status);
    }
    for (const local of await this.driver.list()) {
      if (local.status) this.statuses.set(local.id, local.status);
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
        if (err instanceof ApiError && err.status === 404) this.waitSupported = false;
        else this.log('wait-failed', { error: (err as Error).message });
        break;
      }
    }
    const left = due - Date.now();
    if (left > 0) await sleep(left, undefined, { signal }).catch(() => {});
  }

  private async readTokenFile(): Promise<string | null> {
    const file = this.settings.enrollTokenFile;
    if (!file) return null;
    try {
      return (await readFile(file, 'utf8')).trim() || null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new EnrollmentError(`Cannot read AGENT_ENROLL_TOKEN_FILE: ${(err as Error).message}`);
    }
  }

  /** The token is spent (or not needed): its file goes, so no copy of it outlives enrolment. */
  private async forgetTokenFile() {
    const file = this.settings.enrollTokenFile;
    if (!file) return;
    await rm(file, { force: true }).catch((err: Error) =>
      this.log('token-file-not-removed', { error: err.message }),
    );
  }

  private async ensureEnrolled(signal: AbortSignal) {
    const stored = await loadCredential(this.settings.stateDir);
    if (stored && stored.serverUrl === this.settings.serverUrl) {
      this.api.credential = stored.credential;
      this.log('credential-loaded', { agentId: stored.agentId });
      await this.forgetTokenFile();
      return;
    }
    const token = this.settings.enrollToken ?? (await this.readTokenFile());
    if (!token) {
      throw new EnrollmentError(
        'Not enrolled: set AGENT_ENROLL_TOKEN_FILE (or AGENT_ENROLL_TOKEN) to the one-time token from the provider dashboard',
      );
    }
    for (let attempt = 1; !signal.aborted; attempt++) {
      try {
        const res = await this.api.enroll({
          token,
          hostname: os.hostname().slice(0, 253) || 'unknown',
          agentVersion: AGENT_VERSION,
        });
        await saveCredential(this.settings.stateDir, {
          serverUrl: this.settings.serverUrl,
          agentId: res.agentId,
          credential: res.credential,
        });
        this.api.credential = res.credential;
        if (res.heartbeatIntervalMs) this.heartbeatIntervalMs = res.heartbeatIntervalMs;
        this.log('enrolled', { agentId: res.agentId });
        await this.forgetTokenFile();
        return;
      } catch (err) {
        if (err instanceof ApiError && err.status !== null && err.status < 500) {
          throw new EnrollmentError(`Enrolment refused: ${err.message}`);
        }
        this.log('enroll-retry', { attempt, error: (err as Error).message });
        await sleep(Math.min(30_000, 1000 * attempt), undefined, { signal }).catch(() => {});
      }
    }
  }

  private async heartbeat() {
    try {
      if (Date.now() - this.gpusReadAt >= this.settings.updateIntervalMs) {
        this.gpus = await readGpuInventory(this.settings.nvidiaSmi);
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
            ? { readiness: await probeReadiness(this.settings.readiness, this.gpus) }
            : {}),
        },
        gpus: this.gpus,
        // Each running one with its SSH sessions (idle stop).
        instances: await this.sshSessions.annotate(
          this.statuses.values(),
          this.statusWindow.next([...this.statuses.values()]),
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
      if (res.publicAddress) this.publicAddress = res.publicAddress;
      if (res.images) this.catalogue = res.images;
      this.desired = instances;
      if (!complete) this.log('heartbeat-pages-left', { read: instances.length });
      const listed = new Map(instances.map((d) => [d.id, d.generation]));
      // A failure stops holding its instance back once the server wants something newer of it.
      await this.failedBoots.forget(({ status }) => {
        const generation = listed.get(status.id);
        return generation === undefined ? !complete : generation === status.generation;
      });
      for (const [id, status] of complete ? this.statuses : []) {
        if (status.state === 'terminated' && !listed.has(id)) {
          this.statuses.delete(id);
          this.reported.delete(id);
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
        for (const action of planConvergence(this.desired, actual, this.reported, busy, held)) {
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
        const firmware = image ? this.catalogue.find((i) => i.name === image)?.firmware : undefined;
        try {
          const state = action.kind === 'create' ? 'provisioning' : 'starting';
          if (action.kind === 'await-ready') {
            this.log('adopting', { id: d.id });
          } else {
            const entry = image ? this.catalogue.find((i) => i.name === image) : undefined;
            const downloading = entry !== undefined && !this.images.holds(entry);
            await this.transition(d, state, null, null, {
              step: downloading ? 'downloading-image' : 'booting',
              percent: downloading ? 0 : null,
            });
          }
          const options: BootOptions = {
            gpus: this.gpus.gpus,
            signal: abort.signal,
            // Asked only while the instance has no disk yet (create, or a start after a
            // create that failed before its disk existed).
            ...(image
              ? {
                  image: async () => {
                    backing = await this.fetchImage(d, state, abort.signal);
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
          this.ready.add(d.id);
          await this.failedBoots.forget((b) => b.status.id !== d.id);
          this.log('ssh-ready', {
            id: d.id,
            ms: Date.now() - started,
            sshPort: endpoints.ssh?.port,
          });
          await this.transition(d, 'running', endpoints);
        } catch (err) {
          if (abort.signal.aborted) {
            // Superseded: the next plan stops or terminates it under the newer generation.
            this.log('boot-superseded', { id: d.id, generation: d.generation });
            return;
          }
          await this.driver.forceOff(d.id).catch(() => {});
          await this.transition(d, 'failed', null, (err as Error).message);
          // Kept by the agent, not only with the instance: a boot can fail before the host
          // has made anything of it, and would otherwise be planned again at once.
          const failed = this.statuses.get(d.id);
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
        await this.transition(d, 'stopping');
        await this.driver.stop(d.id);
        this.ready.delete(d.id);
        await this.transition(d, 'stopped');
        return;
      }
      case 'terminate': {
        const d = action.desired;
        await this.transition(d, 'terminating');
        await this.driver.terminate(d.id);
        this.ready.delete(d.id);
        await this.transition(d, 'terminated');
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
        const error = action.state === 'failed' ? (this.statuses.get(d.id)?.error ?? null) : null;
        await this.transition(d, action.state, endpoints, error);
        return;
      }
    }
  }

  /**
   * The instance's image, fetched into the cache when the host lacks it: the renter sees
   * "downloading image (N%)" move (the heartbeat's status at every step, a report every 10
   * points or 5 s), then "booting". A failure fails this generation's boot with the reason.
   */
  private async fetchImage(
    d: DesiredInstance,
    state: InstanceReportState,
    signal: AbortSignal,
  ): Promise<string> {
    const entry = this.catalogue.find((i) => i.name === d.image);
    if (!entry) throw new Error(`image ${d.image} is not in the catalogue`);
    // The provisioning/starting transition said "downloading (0%)" a moment ago.
    let reportedPercent = 0;
    let reportedAt = Date.now();
    let reporting: Promise<void> = Promise.resolve();
    const ensuring = this.images.ensure(
      entry,
      (p) => {
        const percent = fetchedPercent(p);
        const progress: ProvisioningProgress = { step: 'downloading-image', percent };
        const status = this.statuses.get(d.id);
        if (status?.generation === d.generation) this.statuses.set(d.id, { ...status, progress });
        const due =
          percent === 100 ||
          percent >= reportedPercent + PROGRESS_REPORT_POINTS ||
          Date.now() - reportedAt >= PROGRESS_REPORT_MS;
        if (!due || percent === reportedPercent) return;
        reportedPercent = percent;
        reportedAt = Date.now();
        reporting = reporting.then(() => this.transition(d, state, null, null, progress));
      },
      signal,
    );
    // A progress report still on its way must not land after the failed or booting one.
    const file = await ensuring.finally(() => reporting);
    await this.transition(d, state, null, null, { step: 'booting', percent: null });
    return file;
  }

  /** Records a transition (state folder, heartbeat list) and reports it with its generation. */
  private async transition(
    d: DesiredInstance,
    state: InstanceReportState,
    endpoints: Endpoints | null = null,
    error: string | null = null,
    progress: ProvisioningProgress | null = null,
  ) {
    // A generation's failure is reported once: a retry on the backoff says nothing more
    // (the heartbeat keeps the failure and its latest reason) unless it works.
    const last = this.reported.get(d.id);
    if (last?.generation === d.generation && last.state === 'failed' && state !== 'running') {
      const failed = this.statuses.get(d.id);
      if (state === 'failed' && failed?.generation === d.generation) {
        const status = { ...failed, error: error?.slice(0, 2000) ?? failed.error };
        this.statuses.set(d.id, status);
        await this.driver.saveStatus(status);
      }
      this.log('retry-transition', { id: d.id, generation: d.generation, state, error });
      return;
    }
    // Renters connect to the configured address, else to the one the server knows as ours.
    const address = this.settings.publicHost ?? this.publicAddress;
    const at = <T extends { host: string }>(e: T | null | undefined) =>
      e ? { ...e, host: address ?? e.host } : null;
    const status: InstanceStatus = {
      id: d.id,
      generation: d.generation,
      state,
      ssh: at(endpoints?.ssh),
      vnc: at(endpoints?.vnc),
      error: error?.slice(0, 2000) ?? null,
      ...(progress ? { progress } : {}),
      ...(state === 'running' && endpoints?.hostKeys ? { hostKeys: endpoints.hostKeys } : {}),
    };
    this.statuses.set(d.id, status);
    if (state !== 'terminated') await this.driver.saveStatus(status);
    this.log('transition', { id: d.id, generation: d.generation, state, error });
    try {
      const res = await this.api.report({ ...status, at: new Date().toISOString() });
      this.reported.set(d.id, { generation: d.generation, state });
      if (!res.accepted) this.log('report-stale', { id: d.id, generation: d.generation, state });
    } catch (err) {
      // The next heartbeat carries this status anyway; steady states are reported again.
      this.log('report-failed', { id: d.id, error: (err as Error).message });
    }
  }
}
