import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { DesiredInstance } from '../../shared/contracts/agent-protocol';
import { yamlString } from '../../shared/rules/yaml';

const run = promisify(execFile);

export interface SeedFiles {
  metaData: string;
  userData: string;
}

/** A host name cloud-init and the guest accept: lower-case letters, digits and dashes. */
export function guestHostname(instanceId: string): string {
  const name = `rentgpu-${instanceId.toLowerCase().replace(/[^a-z0-9-]/g, '-')}`;
  return name.slice(0, 63).replace(/-+$/, '');
}

/** Every non-empty line of every key, so one pasted blob cannot break the YAML. */
function keyLines(keys: readonly string[]): string[] {
  return keys
    .flatMap((k) => k.split(/[\r\n]+/))
    .map((k) => k.trim())
    .filter((k) => k !== '');
}

/**
 * The cloud-init NoCloud seed: meta-data names the instance (stable across stop/start, so
 * cloud-init's once-per-instance steps run once); user-data creates the login user with the
 * renter's keys and the platform's key. Every value is written as a quoted YAML scalar with
 * anything beyond printable ASCII escaped (yamlString), so cloud-init reads back exactly what
 * was sent whatever a key's comment holds. A template's own user-data travels as a second part
 * of a MIME multipart message, which cloud-init merges ("#cloud-config" or a "#!" script),
 * behind a boundary the template does not contain.
 */
/** The user the agent's readiness probe logs in as; it can run nothing but PROBE_COMMAND. */
export const PROBE_USER = 'rentgpu-probe';

/**
 * All the probe's key may do (a forced command, `restrict`: no shell, no pty, no forwarding):
 * wait until cloud-init has finished this boot — /run is new at every boot, and
 * result.json is written when the final stage ends — and print its result (errors by module).
 */
export const PROBE_COMMAND =
  "sh -c 'until [ -e /run/cloud-init/result.json ]; do sleep 1; done; cat /run/cloud-init/result.json'";

/** The authorized_keys line of the probe's public key. */
export function probeAuthorizedKey(publicKey: string): string {
  const key = publicKey.trim().split(/\s+/).slice(0, 2).join(' ');
  return `restrict,command="${PROBE_COMMAND.replace(/"/g, '\\"')}" ${key} ${PROBE_USER}`;
}

export function buildSeedFiles(
  spec: DesiredInstance,
  options: {
    /**
     * The agent's probe key for this instance (an OpenSSH public key line): with it, a user
     * `rentgpu-probe` that may only read cloud-init's result, so "ready" means the renter's
     * machine is set up, not only that its SSH server answers. None: no such user (the busybox
     * test guest's hand-written cloud-init has no use for it).
     */
    probeKey?: string | null;
  } = {},
): SeedFiles {
  const hostname = guestHostname(spec.id);
  const metaData = `instance-id: ${yamlString(spec.id)}\nlocal-hostname: ${yamlString(hostname)}\n`;
  const keys = keyLines([
    ...spec.sshPublicKeys,
    ...(spec.platformSshPublicKey ? [spec.platformSshPublicKey] : []),
  ]);
  const cloudConfig = [
    '#cloud-config',
    `hostname: ${yamlString(hostname)}`,
    'users:',
    `  - name: ${yamlString(spec.sshUser)}`,
    '    gecos: RentGPU renter',
    '    shell: /bin/bash',
    '    sudo: "ALL=(ALL) NOPASSWD:ALL"',
    '    lock_passwd: true',
    '    ssh_authorized_keys:',
    ...keys.map((k) => `      - ${yamlString(k)}`),
    ...(options.probeKey
      ? [
          `  - name: ${yamlString(PROBE_USER)}`,
          "    gecos: RentGPU readiness probe (can only read cloud-init's result)",
          '    shell: /bin/sh',
          '    lock_passwd: true',
          '    ssh_authorized_keys:',
          `      - ${yamlString(probeAuthorizedKey(options.probeKey))}`,
        ]
      : []),
    'ssh_pwauth: false',
    'disable_root: true',
    // The instance's own name resolves (sudo warned "unable to resolve host" on every call).
    'manage_etc_hosts: true',
    '',
  ].join('\n');
  const template = spec.userData?.trim() ? spec.userData : null;
  if (!template) return { metaData, userData: cloudConfig };
  const boundary = boundaryOutside(template, `==RENTGPU-${spec.id}-${spec.generation}==`);
  const templateType = template.startsWith('#cloud-config')
    ? 'text/cloud-config'
    : template.startsWith('#!')
      ? 'text/x-shellscript'
      : 'text/plain';
  const part = (type: string, name: string, body: string) =>
    [
      `--${boundary}`,
      `Content-Type: ${type}; charset="utf-8"`,
      'MIME-Version: 1.0',
      'Content-Transfer-Encoding: 7bit',
      `Content-Disposition: attachment; filename="${name}"`,
      '',
      body.endsWith('\n') ? body : `${body}\n`,
    ].join('\n');
  const userData = [
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    'MIME-Version: 1.0',
    '',
    part('text/cloud-config', 'rentgpu-users.cfg', cloudConfig),
    part(templateType, 'template-setup', template),
    `--${boundary}--`,
    '',
  ].join('\n');
  return { metaData, userData };
}

/**
 * A MIME boundary that occurs nowhere in the template (the mail parser cloud-init uses ends a
 * part at any line that starts with it, whatever line break precedes it).
 */
function boundaryOutside(template: string, base: string): string {
  let boundary = base;
  for (let n = 1; template.includes(boundary); n += 1) boundary = `${base}${n}==`;
  return boundary;
}

/** Writes the seed as an ISO9660 volume labelled `cidata` (what NoCloud looks for). */
export async function writeSeedIso(target: string, files: SeedFiles, genisoimage = 'genisoimage') {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rentgpu-seed-'));
  try {
    await writeFile(path.join(dir, 'meta-data'), files.metaData);
    await writeFile(path.join(dir, 'user-data'), files.userData);
    await run(genisoimage, [
      '-quiet',
      '-output',
      target,
      '-volid',
      'cidata',
      '-joliet',
      '-rock',
      path.join(dir, 'user-data'),
      path.join(dir, 'meta-data'),
    ]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
