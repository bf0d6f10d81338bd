import { describe, expect, it } from 'vitest';
import { type QemuLaunch, qemuArgs } from './args';

const base: QemuLaunch = {
  id: 'i-1',
  dir: '/var/lib/rentgpu-agent/instances/i-1',
  accelerator: 'kvm',
  cpus: 8,
  memoryMib: 65536,
  hostname: 'rentgpu-i-1',
  listenHost: '0.0.0.0',
  sshPort: 22001,
  vncDisplay: 3,
  kernel: null,
  vfioPciAddresses: ['0000:01:00.0', '0000:41:00.0'],
};
const valuesOf = (args: string[], flag: string) =>
  args.flatMap((a, i) => (a === flag ? [args[i + 1]] : []));

describe('qemuArgs', () => {
  it('on a GPU host: KVM, the GPUs through vfio-pci, SSH forwarded, VNC with a password, QMP', () => {
    const args = qemuArgs(base);
    expect(valuesOf(args, '-name')).toEqual(['rentgpu-i-1']);
    expect(valuesOf(args, '-accel')).toEqual(['kvm']);
    expect(valuesOf(args, '-cpu')).toEqual(['host']);
    expect(valuesOf(args, '-smp')).toEqual(['8']);
    expect(valuesOf(args, '-m')).toEqual(['65536']);
    expect(valuesOf(args, '-device')).toContain('vfio-pci,host=0000:01:00.0');
    expect(valuesOf(args, '-device')).toContain('vfio-pci,host=0000:41:00.0');
    expect(valuesOf(args, '-netdev')).toEqual([
      'user,id=n0,hostname=rentgpu-i-1,hostfwd=tcp:0.0.0.0:22001-:22',
    ]);
    expect(valuesOf(args, '-vnc')).toEqual(['0.0.0.0:3,password=on']);
    expect(valuesOf(args, '-qmp')).toEqual([
      'unix:/var/lib/rentgpu-agent/instances/i-1/qmp.sock,server=on,wait=off',
    ]);
    expect(valuesOf(args, '-drive')).toEqual([
      'file=/var/lib/rentgpu-agent/instances/i-1/disk.qcow2,if=virtio,format=qcow2,discard=unmap',
      'file=/var/lib/rentgpu-agent/instances/i-1/seed.iso,if=virtio,format=raw,readonly=on',
    ]);
    expect(args).not.toContain('-kernel');
    expect(args.at(-1)).toBe('-daemonize');
    // Confined by QEMU's seccomp filter; no privilege switch when the agent is not root.
    expect(valuesOf(args, '-sandbox')).toEqual(['on,obsolete=deny,resourcecontrol=deny']);
    expect(args).not.toContain('-runas');
  });

  it('an image that boots with UEFI: the firmware read-only, the instance its own variable store', () => {
    const args = qemuArgs({
      ...base,
      firmware: { code: '/usr/share/OVMF/OVMF_CODE_4M.fd', vars: `${base.dir}/OVMF_VARS.fd` },
    });
    expect(valuesOf(args, '-drive').slice(0, 2)).toEqual([
      'if=pflash,format=raw,unit=0,readonly=on,file=/usr/share/OVMF/OVMF_CODE_4M.fd',
      'if=pflash,format=raw,unit=1,file=/var/lib/rentgpu-agent/instances/i-1/OVMF_VARS.fd',
    ]);
    // Direct kernel boot needs no firmware.
    const kernel = qemuArgs({
      ...base,
      kernel: { kernel: '/g/vmlinuz', initrd: '/g/initrd.img', append: '' },
      firmware: { code: '/c', vars: '/v' },
    });
    expect(valuesOf(kernel, '-drive').some((d) => d?.startsWith('if=pflash'))).toBe(false);
  });

  it('an agent run as root starts QEMU as another user (never a root guest process)', () => {
    const args = qemuArgs({ ...base, runAs: 'rentgpu-agent' });
    expect(valuesOf(args, '-runas')).toEqual(['rentgpu-agent']);
    expect(valuesOf(args, '-sandbox')).toEqual(['on,obsolete=deny,resourcecontrol=deny']);
  });

  it('in tests: software emulation and direct kernel boot, no devices passed through', () => {
    const args = qemuArgs({
      ...base,
      accelerator: 'tcg',
      vfioPciAddresses: [],
      kernel: { kernel: '/g/vmlinuz', initrd: '/g/initrd.img', append: 'console=ttyS0' },
    });
    expect(valuesOf(args, '-accel')).toEqual(['tcg,thread=multi,tb-size=512']);
    expect(valuesOf(args, '-cpu')).toEqual(['qemu64']);
    expect(valuesOf(args, '-kernel')).toEqual(['/g/vmlinuz']);
    expect(valuesOf(args, '-append')).toEqual(['console=ttyS0']);
    expect(args.join(' ')).not.toContain('vfio-pci');
  });
});
