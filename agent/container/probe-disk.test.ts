import { describe, expect, it } from 'vitest';
import type { Podman } from './podman';
import { PodmanError } from './podman';
import { probeContainers } from './probe';

/**
 * A podman that answers `info` (the JSON and the storage template) and refuses `run`, like a
 * host whose podman works but whose trial container does not.
 */
function fakePodman(o: { info: boolean; storage?: string }): Podman {
  return {
    run: async (args: readonly string[]) => {
      if (args[0] === 'info' && o.info) {
        if (args.includes('json')) {
          return JSON.stringify({
            version: { Version: '4.3.1' },
            host: { ociRuntime: { name: 'runc', version: 'runc version 1.1.5' } },
          });
        }
        return `${o.storage ?? 'overlay\txfs'}\n`;
      }
      throw new PodmanError(args, {
        stderr: 'Error: OCI runtime error: runc: runc create failed: no way',
        message: 'exit 126',
        code: 126,
      });
    },
  } as unknown as Podman;
}

const base = { cdiDirs: ['/nonexistent'], nvidiaCtk: '/nonexistent/nvidia-ctk' };

describe('probeContainers: the disk limit beside a failed trial', () => {
  it('reads the storage driver when only the trial failed (no image, no bundle)', async () => {
    const probe = await probeContainers({
      ...base,
      podman: fakePodman({ info: true }),
      trial: true,
    });
    expect(probe).toMatchObject({
      podman: '4.3.1',
      runtime: 'runc 1.1.5',
      trial: 'failed',
      error: 'no image and no SSH bundle to run a trial container with',
      diskLimit: { enforced: true, reason: null },
    });
  });

  it('reads it when the trial container itself fails, and says why not when it cannot', async () => {
    const probe = await probeContainers({
      ...base,
      podman: fakePodman({ info: true, storage: 'overlay\textfs' }),
      trial: true,
      trialImage: 'localhost/some:1',
    });
    expect(probe.trial).toBe('failed');
    expect(probe.error).toMatch(/runc create failed: no way/);
    expect(probe.diskLimit.enforced).toBe(false);
    expect(probe.diskLimit.reason).toMatch(/overlay storage on extfs .*xfs/);
  });

  it('says podman does not answer only when podman info fails', async () => {
    const probe = await probeContainers({
      ...base,
      podman: fakePodman({ info: false }),
      trial: true,
    });
    expect(probe).toMatchObject({
      podman: null,
      trial: 'not-run',
      diskLimit: { enforced: false, reason: 'podman does not answer' },
    });
    expect(probe.error).toMatch(/podman info failed/);
  });
});
