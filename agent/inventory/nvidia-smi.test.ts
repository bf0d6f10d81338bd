import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { marketplaceModelOf } from '../../shared/gpu-names';
import {
  NVIDIA_SMI_ARGS,
  parseNvidiaSmiCsv,
  pciAddressForVfio,
  readGpuInventory,
} from './nvidia-smi';

const FAKE = path.resolve(import.meta.dirname, '../test/fake-nvidia-smi');

describe('parseNvidiaSmiCsv', () => {
  it('reads the asked fields in order', () => {
    const out = parseNvidiaSmiCsv(
      '0, NVIDIA H100 80GB HBM3, GPU-3c2e38d1-6a2c-4a31-b44b-9d82a8c80735, 81559, 3, 17, 34, 00000000:01:00.0\n' +
        '1, NVIDIA GeForce RTX 4090, GPU-aa, 24564, 1200, 99, 61, 00000000:41:00.0\n',
    );
    expect(out.error).toBeNull();
    expect(out.gpus).toEqual([
      {
        index: 0,
        name: 'NVIDIA H100 80GB HBM3',
        uuid: 'GPU-3c2e38d1-6a2c-4a31-b44b-9d82a8c80735',
        memoryTotalMib: 81559,
        memoryUsedMib: 3,
        utilizationPercent: 17,
        temperatureC: 34,
        pciBusId: '00000000:01:00.0',
        boundTo: 'nvidia',
      },
      {
        index: 1,
        name: 'NVIDIA GeForce RTX 4090',
        uuid: 'GPU-aa',
        memoryTotalMib: 24564,
        memoryUsedMib: 1200,
        utilizationPercent: 99,
        temperatureC: 61,
        pciBusId: '00000000:41:00.0',
        boundTo: 'nvidia',
      },
    ]);
  });

  it('reads [N/A] and its cousins as null, not as zero', () => {
    const out = parseNvidiaSmiCsv(
      '0, Tesla T4, [N/A], [N/A], [Not Supported], [N/A], [Unknown Error], 00000000:3B:00.0\r\n',
    );
    expect(out.error).toBeNull();
    expect(out.gpus[0]).toMatchObject({
      index: 0,
      name: 'Tesla T4',
      uuid: null,
      memoryTotalMib: null,
      memoryUsedMib: null,
      utilizationPercent: null,
      temperatureC: null,
      pciBusId: '00000000:3B:00.0',
    });
  });

  it('refuses garbage as a whole rather than reporting half an inventory', () => {
    expect(
      parseNvidiaSmiCsv(
        '0, A100, GPU-1, 40960, 0, 0, 30, 00000000:01:00.0\nNo devices were found\n',
      ),
    ).toEqual({
      gpus: [],
      error: 'unreadable nvidia-smi output: No devices were found',
    });
    expect(parseNvidiaSmiCsv('index, name\n0, A100').gpus).toEqual([]);
    expect(parseNvidiaSmiCsv('x, A100, GPU-1, 1, 1, 1, 1, 00000000:01:00.0').error).toMatch(
      /unreadable/,
    );
    expect(parseNvidiaSmiCsv('0, A, u, 1, 1, 1, 1, p\n0, B, v, 1, 1, 1, 1, q').error).toBe(
      'nvidia-smi listed GPU 0 twice',
    );
  });

  it('reports an empty answer as no GPUs, with the reason', () => {
    expect(parseNvidiaSmiCsv('')).toEqual({ gpus: [], error: 'nvidia-smi reported no GPUs' });
    expect(parseNvidiaSmiCsv('\n  \n')).toEqual({ gpus: [], error: 'nvidia-smi reported no GPUs' });
  });

  it('keeps out-of-range numbers out', () => {
    const out = parseNvidiaSmiCsv('0, X, u, -5, 1.5, 250, 9999, 00000000:01:00.0');
    expect(out.gpus[0]).toMatchObject({
      memoryTotalMib: null,
      memoryUsedMib: null,
      utilizationPercent: null,
      temperatureC: null,
    });
  });
});

describe('pciAddressForVfio', () => {
  it('turns nvidia-smi bus ids into the form vfio-pci takes', () => {
    expect(pciAddressForVfio('00000000:01:00.0')).toBe('0000:01:00.0');
    expect(pciAddressForVfio('00000000:3B:00.0')).toBe('0000:3b:00.0');
    expect(pciAddressForVfio('0000:41:00.1')).toBe('0000:41:00.1');
    expect(pciAddressForVfio('01:00.0')).toBe('0000:01:00.0');
    expect(pciAddressForVfio('[N/A]')).toBeNull();
    expect(pciAddressForVfio('01:00.0,x')).toBeNull();
  });
});

describe('readGpuInventory', () => {
  it('runs nvidia-smi with the query it parses', async () => {
    expect(NVIDIA_SMI_ARGS).toEqual([
      '--query-gpu=index,name,uuid,memory.total,memory.used,utilization.gpu,temperature.gpu,pci.bus_id',
      '--format=csv,noheader,nounits',
    ]);
    const out = await readGpuInventory(FAKE);
    expect(out.error).toBeNull();
    expect(out.gpus.map((g) => [g.index, g.temperatureC])).toEqual([
      [0, 31],
      [1, null],
    ]);
    // The names the test hosts report are the real H100's: the marketplace lists them as H100.
    expect(out.gpus.map((g) => marketplaceModelOf(g.name))).toEqual(['H100', 'H100']);
  });

  it('turns a broken driver into no GPUs and the reason', async () => {
    process.env.FAKE_NVIDIA_SMI_MODE = 'broken';
    try {
      expect(await readGpuInventory(FAKE)).toEqual({
        gpus: [],
        error:
          "nvidia-smi failed: NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.",
      });
    } finally {
      delete process.env.FAKE_NVIDIA_SMI_MODE;
    }
  });

  it('turns a missing binary into no GPUs and the reason', async () => {
    const out = await readGpuInventory('/nonexistent/nvidia-smi');
    expect(out).toEqual({
      gpus: [],
      error: 'nvidia-smi failed: /nonexistent/nvidia-smi not found (no NVIDIA driver installed?)',
    });
  });
});
