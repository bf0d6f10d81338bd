import path from 'node:path';
import { z } from 'zod';
import { type InstanceStatus, instanceStatus } from '../../shared/contracts/agent-protocol';
import { readJson, writeAtomic } from '../files';

/** The first retry of a failed create or start comes this long after the failure… */
export const BOOT_RETRY_FIRST_MS = 30_000;
/** …each next one twice as long after the one before, never more than this. */
export const BOOT_RETRY_MAX_MS = 10 * 60_000;

/** How long after its `attempts`-th failure a boot is tried again. */
export const bootRetryDelay = (attempts: number) =>
  Math.min(BOOT_RETRY_MAX_MS, BOOT_RETRY_FIRST_MS * 2 ** Math.max(0, attempts - 1));

export interface FailedBoot {
  /** The failed status as reported (its generation, its reason). */
  status: InstanceStatus;
  /** Boots of this generation that failed so far. */
  attempts: number;
  /** When the next try is due (the agent's clock, ms). */
  retryAt: number;
}

const file = z.array(
  z.object({
    status: instanceStatus,
    attempts: z.number().int().min(1),
    retryAt: z.number(),
  }),
);

/**
 * The creates and starts that failed, by instance: the agent's own memory of them, kept in
 * `<stateDir>/failed-boots.json` because a boot can fail before the driver has made anything
 * to keep a status with (no instance folder: no hardware virtualisation, no free port, an
 * image that cannot be had). A failed generation is tried again only on a capped backoff
 * (30 s, doubling, at most 10 min) or when the server sends a newer generation; without this
 * the convergence loop would plan the create again as soon as it failed.
 */
export class FailedBoots {
  private readonly boots = new Map<string, FailedBoot>();
  private readonly file: string;
  private saving: Promise<void> = Promise.resolve();

  constructor(stateDir: string) {
    this.file = path.join(stateDir, 'failed-boots.json');
  }

  async load(): Promise<FailedBoot[]> {
    for (const boot of (await readJson(this.file, (v) => file.parse(v))) ?? []) {
      this.boots.set(boot.status.id, boot);
    }
    return [...this.boots.values()];
  }

  get(id: string): FailedBoot | undefined {
    return this.boots.get(id);
  }

  /** A boot of `status.generation` failed at `now`; returns when it may be tried again. */
  async record(status: InstanceStatus, now: number): Promise<FailedBoot> {
    const before = this.boots.get(status.id);
    const attempts = before?.status.generation === status.generation ? before.attempts + 1 : 1;
    const boot = { status, attempts, retryAt: now + bootRetryDelay(attempts) };
    this.boots.set(status.id, boot);
    await this.save();
    return boot;
  }

  /**
   * Forgets what no longer applies: a boot that worked, or one whose instance the server
   * wants otherwise now (a newer generation) or no longer lists (`keep` false).
   */
  async forget(keep: (boot: FailedBoot) => boolean): Promise<void> {
    let changed = false;
    for (const [id, boot] of this.boots) {
      if (keep(boot)) continue;
      this.boots.delete(id);
      changed = true;
    }
    if (changed) await this.save();
  }

  /** Instance id → the generation whose next try is not due yet at `now`. */
  held(now: number): Map<string, number> {
    const held = new Map<string, number>();
    for (const [id, boot] of this.boots) {
      if (now < boot.retryAt) held.set(id, boot.status.generation);
    }
    return held;
  }

  /** One write at a time (they share a temporary name), each of the latest contents. */
  private save(): Promise<void> {
    const next = this.saving.then(() =>
      writeAtomic(this.file, JSON.stringify([...this.boots.values()])),
    );
    this.saving = next.catch(() => {});
    return next;
  }
}
