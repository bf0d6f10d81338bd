import { execFile } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { DriverError } from '../driver';

const run = promisify(execFile);

/**
 * The podman command line (docs/decisions/025: the CLI, not its REST socket). Every call gets
 * the global flags this host needs: `--runtime runc` (crun refuses cgroup v1 hybrid hosts),
 * `--cgroup-manager cgroupfs` and `--events-backend file` (no systemd needed), plus the
 * driver's own (`--root`/`--runroot`/`--network-config-dir` in tests: never the host's store).
 */
export class Podman {
  /** The working folder made once, before the first podman process starts in it. */
  private cwdMade: Promise<unknown> | null = null;

  constructor(
    readonly binary: string,
    private readonly globalFlags: readonly string[],
    /** Added to the agent's environment for every podman process (CONTAINERS_REGISTRIES_CONF). */
    readonly env?: Readonly<Record<string, string>>,
    /**
     * The folder podman runs in (made when missing), and so each container's conmon, which
     * podman starts in its own working folder: conmon writes an empty file `oom` there when
     * the kernel reports an out-of-memory event of the container's cgroup (cgroup v1 reports
     * one as the cgroup goes away too). Without it that was the agent's folder: the tests left
     * `oom` in the repository's root.
     */
    readonly cwd?: string,
  ) {}

  async run(
    args: readonly string[],
    o: {
      timeoutMs?: number;
      signal?: AbortSignal;
      /** Added to the environment for this command only (a pull's own TMPDIR). */
      env?: Readonly<Record<string, string>>;
    } = {},
  ): Promise<string> {
    const env = this.env || o.env ? { ...process.env, ...this.env, ...o.env } : undefined;
    const { cwd } = this;
    if (cwd) {
      this.cwdMade ??= mkdir(cwd, { recursive: true, mode: 0o700 }).catch(() => {});
      await this.cwdMade;
    }
    try {
      const { stdout } = await run(this.binary, [...this.globalFlags, ...args], {
        timeout: o.timeoutMs ?? 120_000,
        ...(env ? { env } : {}),
        ...(cwd ? { cwd } : {}),
        maxBuffer: 16 * 1024 * 1024,
        ...(o.signal ? { signal: o.signal } : {}),
      });
      return stdout;
    } catch (err) {
      throw new PodmanError(args, err as { stderr?: string; message: string; code?: unknown });
    }
  }

  /** `podman <args>` that prints JSON (`--format json`, `inspect`). */
  async json<T>(args: readonly string[], o?: { timeoutMs?: number }): Promise<T> {
    return JSON.parse(await this.run(args, o)) as T;
  }

  /** Whether `podman <what> exists <name>` says yes (exit 0) or no (exit 1). */
  async exists(what: 'container' | 'network' | 'image', name: string): Promise<boolean> {
    try {
      await this.run([what, 'exists', name], { timeoutMs: 30_000 });
      return true;
    } catch (err) {
      if (err instanceof PodmanError && err.exitCode === 1) return false;
      throw err;
    }
  }
}

/** A podman command that failed, with podman's own words (its last stderr line). */
export class PodmanError extends DriverError {
  readonly exitCode: number | null;
  readonly stderr: string;
  constructor(args: readonly string[], e: { stderr?: string; message: string; code?: unknown }) {
    const stderr = (e.stderr ?? '').trim();
    const words = (stderr.split('\n').filter(Boolean).at(-1) ?? e.message).replace(/^Error: /, '');
    super(`podman ${args[0] ?? ''} failed: ${words}`.slice(0, 1000));
    this.exitCode = typeof e.code === 'number' ? e.code : null;
    this.stderr = stderr;
  }
}

/**
 * The hard `nofile` and `nproc` limits of the agent's own process (/proc/self/limits):
 * podman's defaults are above them on hosts without CAP_SYS_RESOURCE and the start fails with
 * "setrlimit … Operation not permitted", so containers get these (capped) instead.
 */
export async function hardLimits(cap = 1_048_576): Promise<{ nofile: number; nproc: number }> {
  const text = await readFile('/proc/self/limits', 'utf8').catch(() => '');
  const hard = (name: string, fallback: number) => {
    const line = text.split('\n').find((l) => l.startsWith(name));
    const value = line?.slice(name.length).trim().split(/\s+/)[1];
    const n = value === 'unlimited' ? cap : Number(value);
    return Number.isFinite(n) && n > 0 ? Math.min(n, cap) : fallback;
  };
  // runc fails to set an nproc limit above pid_max in a user namespace (measured: 32768 here,
  // with a hard limit of 96365); the container's real bound is its --pids-limit anyway.
  const pidMax = Number(
    (await readFile('/proc/sys/kernel/pid_max', 'utf8').catch(() => '32768')).trim(),
  );
  return {
    nofile: hard('Max open files', 1024),
    nproc: Math.min(hard('Max processes', 4096), pidMax > 0 ? pidMax : 32768),
  };
}
