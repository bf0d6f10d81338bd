import { access, constants, readFile, statfs } from 'node:fs/promises';
import os from 'node:os';
import type { HostInventory } from '../../shared/contracts/agent-protocol';

export type Accelerator = HostInventory['accelerator'];

/**
 * KVM only when a hardware-assisted module backs /dev/kvm: on hosts where only a paravirtual
 * module (kvm_pvm) does, a stock guest kernel hangs under `-accel kvm`. Software emulation
 * (TCG) only when the agent's configuration allows it (tests, CI).
 */
export async function detectAccelerator(allowSoftware: boolean, sysModule = '/sys/module') {
  const hardware =
    (await exists(`${sysModule}/kvm_intel`)) || (await exists(`${sysModule}/kvm_amd`));
  if (hardware && (await writable('/dev/kvm'))) return 'kvm' as const;
  return allowSoftware ? ('tcg' as const) : ('none' as const);
}

export async function readHostInventory(
  stateDir: string,
  accelerator: Accelerator,
  guestMemoryMib: number | null = null,
): Promise<HostInventory> {
  const cpus = os.cpus();
  const fs = await statfs(stateDir);
  return {
    hostname: os.hostname().slice(0, 253) || 'unknown',
    cpu: {
      model: (cpus[0]?.model ?? 'unknown').trim().slice(0, 200),
      cores: Math.max(1, cpus.length),
    },
    memory: {
      totalBytes: os.totalmem(),
      availableBytes: await memAvailable(),
      ...(guestMemoryMib === null ? {} : { guestBytes: guestMemoryMib * 1024 * 1024 }),
    },
    disk: { path: stateDir, totalBytes: fs.blocks * fs.bsize, freeBytes: fs.bavail * fs.bsize },
    accelerator,
  };
}

/** MemAvailable (what can be given to guests without swapping), not MemFree. */
async function memAvailable(): Promise<number> {
  try {
    const text = await readFile('/proc/meminfo', 'utf8');
    const kib = /^MemAvailable:\s+(\d+) kB$/m.exec(text)?.[1];
    if (kib) return Number(kib) * 1024;
  } catch {
    // not Linux: fall through
  }
  return os.freemem();
}

async function exists(path: string) {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

async function writable(path: string) {
  try {
    await access(path, constants.R_OK | constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
