import { execFile } from 'node:child_process';
import { copyFile, readFile, rename, rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import { fileExists, readJson, writeAtomic } from '../files';
import { instanceFiles } from './args';
import { PROBE_USER } from './seed';

const run = promisify(execFile);

/**
 * How an instance boots, decided when it is created and kept in its folder (`boot.json`):
 * `kernel` is direct kernel boot (the busybox test guest: its hand-written cloud-init has no
 * probe user, so ready is its SSH banner); `uefi` and `bios` boot the image's own loader, and
 * ready is the readiness probe's (probe.ts). docs/decisions/015-os-images.md.
 */
export type BootMode = 'kernel' | 'uefi' | 'bios';

export interface Firmware {
  code: string;
  varsTemplate: string;
}

export class BootSetupError extends Error {
  override name = 'BootSetupError';
}

/** The boot mode of a new instance is decided once, then read back at every start. */
export async function ensureBootMode(
  dir: string,
  wanted: 'uefi' | 'bios' | undefined,
  host: { kernel: boolean; firmware: Firmware | null },
): Promise<BootMode> {
  const file = instanceFiles(dir).boot;
  const known = await bootModeAt(file);
  if (known) return known;
  const mode: BootMode = wanted ?? (host.kernel ? 'kernel' : host.firmware ? 'uefi' : 'bios');
  if (mode === 'uefi' && !host.firmware) {
    throw new BootSetupError(
      'this image boots with UEFI firmware and none is installed (the ovmf package, or AGENT_OVMF_CODE and AGENT_OVMF_VARS)',
    );
  }
  await writeAtomic(file, JSON.stringify({ mode }));
  return mode;
}

/** An instance's boot mode; one created before modes were kept booted its kernel. */
export async function bootModeOf(dir: string): Promise<BootMode> {
  return (await bootModeAt(instanceFiles(dir).boot)) ?? 'kernel';
}

async function bootModeAt(file: string): Promise<BootMode | null> {
  const saved = await readJson(file, (v) => (v as { mode?: unknown }).mode);
  return saved === 'kernel' || saved === 'uefi' || saved === 'bios' ? saved : null;
}

/** This instance's own UEFI variable store, copied from the firmware's template once. */
export async function ensureFirmwareVars(dir: string, firmware: Firmware | null) {
  if (!firmware) throw new BootSetupError('no UEFI firmware configured');
  const vars = instanceFiles(dir).firmwareVars;
  if (!(await fileExists(vars))) {
    await copyFile(firmware.varsTemplate, `${vars}.tmp`);
    await rename(`${vars}.tmp`, vars);
  }
  return { code: firmware.code, vars };
}

/** The readiness probe's key pair, made once per instance; answers the public key line. */
export async function ensureProbeKey(dir: string, sshKeygen = 'ssh-keygen'): Promise<string> {
  const key = instanceFiles(dir).probeKey;
  if (!(await fileExists(`${key}.pub`))) {
    await rm(key, { force: true });
    await run(sshKeygen, ['-q', '-t', 'ed25519', '-N', '', '-C', PROBE_USER, '-f', key]);
  }
  return (await readFile(`${key}.pub`, 'utf8')).trim();
}
