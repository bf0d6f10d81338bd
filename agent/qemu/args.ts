import path from 'node:path';
import type { GpuInfo } from '../../shared/contracts/agent-protocol';
import { DriverError } from '../driver';
import { pciAddressForVfio } from '../inventory/nvidia-smi';

/** Everything needed to start one instance's QEMU; built into argv by a pure function. */
export interface QemuLaunch {
  id: string;
  dir: string;
  accelerator: 'kvm' | 'tcg';
  cpus: number;
  memoryMib: number;
  hostname: string;
  /** Address the SSH forward and VNC listen on (0.0.0.0 on a host, 127.0.0.1 in tests). */
  listenHost: string;
  sshPort: number;
  vncDisplay: number;
  /** Direct kernel boot (the test guest); null boots the image's own boot loader. */
  kernel: { kernel: string; initrd: string; append: string } | null;
  /**
   * UEFI firmware (OVMF) for an image that boots from its own disk: the read-only code and
   * this instance's own variable store (instanceFiles().firmwareVars, a copy of the template).
   * null with no kernel: the default BIOS (SeaBIOS).
   */
  firmware?: { code: string; vars: string } | null;
  /** PCI addresses (`0000:01:00.0`) passed through with vfio-pci. */
  vfioPciAddresses: string[];
  /**
   * The user QEMU switches to once set up, when the agent runs as root (the installer runs it
   * as its own user, so this is null there): a guest escape never lands in a root process.
   */
  runAs?: string | null;
}

/**
 * QEMU's seccomp filter: the base filter plus obsolete and resource-control system calls
 * refused. `spawn=deny` and `elevateprivileges=deny` are not set: both refuse what
 * -daemonize itself does (fork, setsid) in QEMU 7.2, and the agent starts QEMU daemonized
 * so that guests outlive it (ADR 014). Neither is lost outright: the agent's user has no
 * privileges to gain and the service sets NoNewPrivileges, which QEMU inherits.
 */
export const QEMU_SANDBOX = 'on,obsolete=deny,resourcecontrol=deny';

export const instanceFiles = (dir: string) => ({
  disk: path.join(dir, 'disk.qcow2'),
  seed: path.join(dir, 'seed.iso'),
  qmp: path.join(dir, 'qmp.sock'),
  pid: path.join(dir, 'qemu.pid'),
  serial: path.join(dir, 'serial.log'),
  log: path.join(dir, 'qemu.log'),
  spec: path.join(dir, 'spec.json'),
  status: path.join(dir, 'status.json'),
  /** How this instance boots, decided when it was created (kernel, uefi or bios). */
  boot: path.join(dir, 'boot.json'),
  /** This instance's UEFI variable store (boot entries), kept across stop and start. */
  firmwareVars: path.join(dir, 'OVMF_VARS.fd'),
  /** The readiness probe's key pair (seed.ts: a user that may only read cloud-init's result). */
  probeKey: path.join(dir, 'probe_ed25519'),
  /** The guest's SSH host key as the probe saw it: reported, so nobody trusts on first use. */
  knownHosts: path.join(dir, 'known_hosts'),
  ports: path.join(dir, 'ports.json'),
});

/** The `-name` every instance's QEMU carries; how the agent finds it again after a restart. */
export const qemuProcessName = (id: string) => `rentgpu-${id}`;

export function qemuArgs(l: QemuLaunch): string[] {
  const f = instanceFiles(l.dir);
  // Software emulation (TCG): a 512 MiB translation cache. A distribution's boot (systemd,
  // cloud-init's Python) outgrows 64 MiB within a minute and every flush retranslates all the
  // guest's code (22 flushes by cloud-init's first stage, about 15% of a Debian boot); only
  // the pages used are resident (about 0.9 GB at the end of that boot, 0.4 GB with 64 MiB).
  // The qemu64 CPU model: the test image's boot to cloud-init's end took 64–68 s of the host's
  // CPU with it against 77–78 s with `max` (Nehalem: 81 s; `max` without AVX: 77 s), and the
  // real-guest test 153 s against 173 s. Software emulation is for tests and trials only: an
  // image that needs x86-64-v2 (RHEL 9, Windows 11) needs a host with KVM anyway.
  const accel =
    l.accelerator === 'kvm'
      ? ['-machine', 'q35', '-accel', 'kvm', '-cpu', 'host']
      : ['-machine', 'pc', '-accel', 'tcg,thread=multi,tb-size=512', '-cpu', 'qemu64'];
  const kernel = l.kernel
    ? ['-kernel', l.kernel.kernel, '-initrd', l.kernel.initrd, '-append', l.kernel.append]
    : [];
  return [
    '-name',
    qemuProcessName(l.id),
    '-sandbox',
    QEMU_SANDBOX,
    // -runas: QEMU 7.2 and 8 (QEMU 9.1 adds `-run-with user=` and still accepts -runas).
    ...(l.runAs ? ['-runas', l.runAs] : []),
    ...accel,
    '-smp',
    String(l.cpus),
    '-m',
    String(l.memoryMib),
    ...kernel,
    ...(!l.kernel && l.firmware
      ? [
          '-drive',
          `if=pflash,format=raw,unit=0,readonly=on,file=${l.firmware.code}`,
          '-drive',
          `if=pflash,format=raw,unit=1,file=${l.firmware.vars}`,
        ]
      : []),
    '-drive',
    `file=${f.disk},if=virtio,format=qcow2,discard=unmap`,
    '-drive',
    `file=${f.seed},if=virtio,format=raw,readonly=on`,
    // slirp: the guest's port 22 on a host port. A production host would rather give guests a
    // bridge (tap) with their own addresses; slirp needs no root and no host network changes.
    '-netdev',
    `user,id=n0,hostname=${l.hostname},hostfwd=tcp:${l.listenHost}:${l.sshPort}-:22`,
    '-device',
    'virtio-net-pci,netdev=n0,romfile=',
    '-device',
    'virtio-rng-pci',
    ...l.vfioPciAddresses.flatMap((addr) => ['-device', `vfio-pci,host=${addr}`]),
    // VNC refuses every client until QMP change-vnc-password sets the instance's password.
    '-vnc',
    `${l.listenHost}:${l.vncDisplay},password=on`,
    '-qmp',
    `unix:${f.qmp},server=on,wait=off`,
    '-serial',
    `file:${f.serial}`,
    '-monitor',
    'none',
    '-pidfile',
    f.pid,
    '-daemonize',
  ];
}

/** The PCI addresses of an instance's GPUs for VFIO passthrough, from the host's inventory. */
export function vfioAddresses(gpuIndexes: readonly number[], gpus: readonly GpuInfo[]): string[] {
  return gpuIndexes.map((index) => {
    const gpu = gpus.find((g) => g.index === index);
    const addr = gpu?.pciBusId ? pciAddressForVfio(gpu.pciBusId) : null;
    if (!addr) throw new DriverError(`GPU ${index} is not on this host (or has no PCI address)`);
    return addr;
  });
}
