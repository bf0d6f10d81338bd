import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cdiGpuDevices, yamlSpec } from './probe';

/** A spec as `nvidia-ctk cdi generate` writes it (two GPUs; trimmed mounts and hooks). */
const FIXTURE = path.join(__dirname, 'fixtures/nvidia-ctk-cdi.yaml');
const DEVICES = [
  '0',
  'GPU-8d6a1e3c-5b2f-4c71-9e0a-3f4b2d1c7a96',
  '1',
  'GPU-2c94f0b7-81de-4a36-b5c8-d07e19a6f452',
  'all',
];

describe('yamlSpec', () => {
  it("reads nvidia-ctk's spec: the kind and every device's name (items at column 0)", async () => {
    expect(yamlSpec(await readFile(FIXTURE, 'utf8'))).toEqual({
      kind: 'nvidia.com/gpu',
      devices: DEVICES,
    });
  });

  it('reads the same spec with indented items, names first, quoted, commented', async () => {
    const text = [
      '# written by hand',
      "cdiVersion: '0.5.0'",
      "kind: 'nvidia.com/gpu' # the kind",
      'containerEdits:',
      '  env:',
      '    - NVIDIA_VISIBLE_DEVICES=void',
      'devices:',
      '  - name: "0"',
      '    containerEdits:',
      '      deviceNodes:',
      '        - path: /dev/nvidia0',
      '      hooks:',
      '        - hookName: createContainer',
      '          path: /usr/bin/nvidia-ctk',
      '  - containerEdits:',
      '      deviceNodes:',
      '        - path: /dev/nvidia0',
      '    name: GPU-8d6a1e3c-5b2f-4c71-9e0a-3f4b2d1c7a96',
      '  - name: all',
      '',
    ].join('\n');
    expect(yamlSpec(text)).toEqual({
      kind: 'nvidia.com/gpu',
      devices: ['0', 'GPU-8d6a1e3c-5b2f-4c71-9e0a-3f4b2d1c7a96', 'all'],
    });
  });

  it('takes no name from the top-level containerEdits or from a list after devices', () => {
    const text = [
      'cdiVersion: 0.5.0',
      'containerEdits:',
      '  mounts:',
      '  - name: not-a-device',
      'devices:',
      '- name: "0"',
      'annotations:',
      '- name: not-a-device-either',
      'kind: nvidia.com/gpu',
    ].join('\n');
    expect(yamlSpec(text)).toEqual({ kind: 'nvidia.com/gpu', devices: ['0'] });
  });

  it('refuses a spec without a kind', () => {
    expect(() => yamlSpec('cdiVersion: 0.5.0\ndevices:\n- name: "0"\n')).toThrow(/no kind/);
  });
});

describe('cdiGpuDevices', () => {
  it("lists the kind's devices from the spec files of the folders", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cdi-'));
    try {
      await writeFile(path.join(dir, 'nvidia.yaml'), await readFile(FIXTURE, 'utf8'));
      await writeFile(
        path.join(dir, 'other.json'),
        JSON.stringify({
          cdiVersion: '0.5.0',
          kind: 'vendor.example/fpga',
          devices: [{ name: 'x' }],
        }),
      );
      await writeFile(path.join(dir, 'notes.txt'), 'not a spec');
      expect(await cdiGpuDevices([dir, path.join(dir, 'absent')], 'nvidia.com/gpu')).toEqual({
        gpuDevices: DEVICES,
        error: null,
      });
      expect(await cdiGpuDevices([dir], 'amd.com/gpu')).toEqual({ gpuDevices: [], error: null });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('says why when no spec can be read', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cdi-'));
    try {
      expect((await cdiGpuDevices([dir], 'nvidia.com/gpu')).error).toMatch(/no CDI spec in/);
      await writeFile(path.join(dir, 'broken.json'), '{');
      expect((await cdiGpuDevices([dir], 'nvidia.com/gpu')).error).toMatch(/broken\.json/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
