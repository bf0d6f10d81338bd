import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gpuInventory } from '../../shared/contracts/agent-protocol';
import { marketplaceModelOf } from '../../shared/gpu-names';
import {
  NVIDIA_SMI_ARGS,
  NVIDIA_SMI_CUDA_ARGS,
  parseCudaVersion,
  parseNvidiaSmiCsv,
  pciAddressForVfio,
  readGpuInventory,
} from './nvidia-smi';

const FAKE = path.resolve(import.meta.dirname, '../test/fake-nvidia-smi');
/** `nvidia-smi -q` of a real H100 host, driver 580.159.04 (shared/fixtures/real-gpu/README.md). */
const REAL_H100_Q = path.resolve(
  import.meta.dirname,
  '../../shared/fixtures/real-gpu/nvidia-smi-q.txt',
);
/** The agent's query on that host (its answer as shared/fixtures/real-gpu/ records it). */
const REAL_H100_CSV =
  '0, NVIDIA H100 80GB HBM3, GPU-0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d, 81559, 0, 0, 44, 00000000:00:06.0, 580.159.04\n';

describe('parseNvidiaSmiCsv', () => {
  it('reads the asked fields in order', () => {
    const out = parseNvidiaSmiCsv(
      '0, NVIDIA H100 80GB HBM3, GPU-3c2e38d1-6a2c-4a31-b44b-9d82a8c80735, 81559, 3, 17, 34, 00000000:01:00.0, 550.54.15\n' +
        '1, NVIDIA GeForce RTX 4090, GPU-aa, 24564, 1200, 99, 61, 00000000:41:00.0, 550.54.15\n',
    );
    expect(out.error).toBeNull();
    expect(out.driverVersion).toBe('550.54.15');
    expect(out.cudaVersion).toBeNull();
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
      driverVersion: null,
      cudaVersion: null,
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
    const none = {
      gpus: [],
      driverVersion: null,
      cudaVersion: null,
      error: 'nvidia-smi reported no GPUs',
    };
    expect(parseNvidiaSmiCsv('')).toEqual(none);
    expect(parseNvidiaSmiCsv('\n  \n')).toEqual(none);
  });

  it('reads the driver version of the real H100 host', () => {
    const out = parseNvidiaSmiCsv(REAL_H100_CSV);
    expect(out.error).toBeNull();
    expect(out.driverVersion).toBe('580.159.04');
    expect(out.gpus).toHaveLength(1);
    expect(out.gpus[0]).not.toHaveProperty('driverVersion');
  });

  it('reads an answer without the driver_version column, with no driver version', () => {
    const out = parseNvidiaSmiCsv('0, A100, GPU-1, 40960, 0, 0, 30, 00000000:01:00.0\n');
    expect(out).toMatchObject({ error: null, driverVersion: null, cudaVersion: null });
    expect(out.gpus).toHaveLength(1);
    // Lines of both widths in one answer are not one query's answer.
    expect(
      parseNvidiaSmiCsv('0, A, u, 1, 1, 1, 1, p, 550.54.15\n1, B, v, 1, 1, 1, 1, q').error,
    ).toMatch(/unreadable/);
  });

  it('keeps a driver version that is not one, or too long for the contract, out', () => {
    expect(parseNvidiaSmiCsv('0, A, u, 1, 1, 1, 1, p, [N/A]').driverVersion).toBeNull();
    expect(parseNvidiaSmiCsv('0, A, u, 1, 1, 1, 1, p, beta driver').driverVersion).toBeNull();
    expect(parseNvidiaSmiCsv(`0, A, u, 1, 1, 1, 1, p, ${'1.'.repeat(40)}1`).driverVersion).toBe(
      null,
    );
    // One driver per host: the first GPU that tells says it.
    expect(
      parseNvidiaSmiCsv('0, A, u, 1, 1, 1, 1, p, [N/A]\n1, B, v, 1, 1, 1, 1, q, 535.183.01')
        .driverVersion,
    ).toBe('535.183.01');
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

describe('parseCudaVersion', () => {
  it('reads the CUDA version nvidia-smi -q reports on the real H100 host', async () => {
    expect(parseCudaVersion(await readFile(REAL_H100_Q, 'utf8'))).toBe('13.0');
  });

  it("reads the plain nvidia-smi table's header too", () => {
    expect(
      parseCudaVersion(
        '| NVIDIA-SMI 580.159.04             Driver Version: 580.159.04     CUDA Version: 13.0     |\n',
      ),
    ).toBe('13.0');
  });

  it('is null where nvidia-smi names no CUDA version', () => {
    expect(parseCudaVersion('Driver Version : 410.48\nAttached GPUs : 1\n')).toBeNull();
    expect(parseCudaVersion('CUDA Version : N/A\n')).toBeNull();
    expect(parseCudaVersion(`CUDA Version : ${'1.'.repeat(10)}1\n`)).toBeNull();
    expect(parseCudaVersion('')).toBeNull();
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
      '--query-gpu=index,name,uuid,memory.total,memory.used,utilization.gpu,temperature.gpu,pci.bus_id,driver_version',
      '--format=csv,noheader,nounits',
    ]);
    const out = await readGpuInventory(FAKE);
    expect(out.error).toBeNull();
    // The test stand-in knows no driver_version ([N/A]) and answers no -q.
    expect(out).toMatchObject({ driverVersion: null, cudaVersion: null });
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
        driverVersion: null,
        cudaVersion: null,
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
      driverVersion: null,
      cudaVersion: null,
      error: 'nvidia-smi failed: /nonexistent/nvidia-smi not found (no NVIDIA driver installed?)',
    });
  });

  it("reports the real H100 host's driver and CUDA version, within the contract", async () => {
    expect(NVIDIA_SMI_CUDA_ARGS).toEqual(['-q']);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'nvidia-smi-'));
    try {
      const csv = path.join(dir, 'query.csv');
      await writeFile(csv, REAL_H100_CSV);
      const bin = path.join(dir, 'nvidia-smi');
      await writeFile(
        bin,
        `#!/bin/sh\nif [ "$1" = -q ]; then cat '${REAL_H100_Q}'; else cat '${csv}'; fi\n`,
      );
      await chmod(bin, 0o755);
      const out = await readGpuInventory(bin);
      expect(out).toMatchObject({ error: null, driverVersion: '580.159.04', cudaVersion: '13.0' });
      expect(gpuInventory.parse(out)).toEqual(out);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
