import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DesiredInstance } from '../../shared/contracts/agent-protocol';
import {
  buildSeedFiles,
  guestHostname,
  PROBE_COMMAND,
  PROBE_USER,
  probeAuthorizedKey,
  writeSeedIso,
} from './seed';

const spec: DesiredInstance = {
  id: 'Inst_42',
  generation: 3,
  state: 'running',
  kind: 'vm',
  cpus: 2,
  memoryMib: 2048,
  diskGib: 20,
  gpuIndexes: [1],
  sshUser: 'ubuntu',
  sshPublicKeys: [
    'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA renter@laptop',
    ' ssh-rsa AAAAB3Nza second\n',
  ],
  platformSshPublicKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB rentgpu-platform',
  vncPassword: 'abc',
  userData: null,
};

describe('cloud-init seed', () => {
  it('names the instance and creates the user with the renter keys and the platform key', () => {
    const { metaData, userData } = buildSeedFiles(spec);
    expect(metaData).toBe('instance-id: "Inst_42"\nlocal-hostname: "rentgpu-inst-42"\n');
    expect(userData).toBe(
      [
        '#cloud-config',
        'hostname: "rentgpu-inst-42"',
        'users:',
        '  - name: "ubuntu"',
        '    gecos: RentGPU renter',
        '    shell: /bin/bash',
        '    sudo: "ALL=(ALL) NOPASSWD:ALL"',
        '    lock_passwd: true',
        '    ssh_authorized_keys:',
        '      - "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA renter@laptop"',
        '      - "ssh-rsa AAAAB3Nza second"',
        '      - "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB rentgpu-platform"',
        'ssh_pwauth: false',
        'disable_root: true',
        'manage_etc_hosts: true',
        '',
      ].join('\n'),
    );
  });

  it("with the agent's probe key, a user that can only read cloud-init's result", () => {
    const probe = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIC rentgpu-probe';
    const { userData } = buildSeedFiles(spec, { probeKey: probe });
    expect(userData).toContain(`  - name: "${PROBE_USER}"\n`);
    const line = /^ {6}- "(restrict,command=.*)"$/m.exec(
      userData.split(`name: "${PROBE_USER}"`)[1] ?? '',
    )?.[1];
    // The YAML scalar escapes the forced command's quotes; unescaped it is one authorized_keys line.
    expect(line?.replaceAll('\\"', '"')).toBe(probeAuthorizedKey(probe));
    expect(probeAuthorizedKey(probe)).toBe(
      `restrict,command="${PROBE_COMMAND}" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIC ${PROBE_USER}`,
    );
    // No sudo for the probe: only the renter's user has it.
    expect(userData.match(/sudo:/g)).toHaveLength(1);
    expect(buildSeedFiles(spec).userData).not.toContain(PROBE_USER);
  });

  it('cannot be broken out of by a key with a line break', () => {
    const { userData } = buildSeedFiles({
      ...spec,
      sshPublicKeys: ['ssh-ed25519 AAAA a\nruncmd: [reboot]'],
      platformSshPublicKey: null,
    });
    expect(userData).toContain('      - "ssh-ed25519 AAAA a"\n      - "runcmd: [reboot]"\n');
    expect(userData).not.toMatch(/^runcmd/m);
  });

  it('adds the template user-data as a second part of a MIME multipart message', () => {
    const { userData } = buildSeedFiles({ ...spec, userData: '#!/bin/bash\npip install torch\n' });
    const boundary = '==RENTGPU-Inst_42-3==';
    expect(
      userData.startsWith(
        `Content-Type: multipart/mixed; boundary="${boundary}"\nMIME-Version: 1.0\n\n--${boundary}\nContent-Type: text/cloud-config;`,
      ),
    ).toBe(true);
    expect(userData).toContain(
      `--${boundary}\nContent-Type: text/x-shellscript; charset="utf-8"\nMIME-Version: 1.0\nContent-Transfer-Encoding: 7bit\nContent-Disposition: attachment; filename="template-setup"\n\n#!/bin/bash\npip install torch\n`,
    );
    expect(userData.endsWith(`--${boundary}--\n`)).toBe(true);
    expect(
      buildSeedFiles({ ...spec, userData: '#cloud-config\npackages: [htop]' }).userData,
    ).toContain(
      'Content-Type: text/cloud-config; charset="utf-8"\nMIME-Version: 1.0\nContent-Transfer-Encoding: 7bit\nContent-Disposition: attachment; filename="template-setup"\n\n#cloud-config\npackages: [htop]\n',
    );
  });

  it('makes host names the guest accepts', () => {
    expect(guestHostname('ABC_def-1')).toBe('rentgpu-abc-def-1');
    expect(guestHostname('x'.repeat(80))).toHaveLength(63);
  });

  it('writes an ISO9660 volume labelled cidata holding both files', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'seed-test-'));
    try {
      const iso = path.join(dir, 'seed.iso');
      const files = buildSeedFiles(spec);
      await writeSeedIso(iso, files);
      const bytes = await readFile(iso);
      // Primary volume descriptor at sector 16: "CD001" at +1, volume id at +40 (32 bytes).
      expect(bytes.subarray(32768 + 1, 32768 + 6).toString('latin1')).toBe('CD001');
      expect(
        bytes
          .subarray(32768 + 40, 32768 + 72)
          .toString('latin1')
          .trim(),
      ).toBe('cidata');
      expect(bytes.includes(Buffer.from(files.userData))).toBe(true);
      expect(bytes.includes(Buffer.from(files.metaData))).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
