import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gpuModelInfo } from './gpu-models';
import { marketplaceModelOf, NVIDIA_SMI_NAMES } from './gpu-names';
import { GPU_PCI_IDS, gpuByPciDeviceId, NVIDIA_VENDOR_ID, unknownGpuName } from './gpu-pci-ids';

/** Debian's PCI id list (package `pci.ids`; scripts/test-prereqs.sh installs it). */
const PCI_IDS = '/usr/share/misc/pci.ids';

/** The devices pci.ids lists under vendor 10de: device id → description. */
function nvidiaDevices(text: string): { version: string; devices: Map<string, string> } {
  const devices = new Map<string, string>();
  let inVendor = false;
  for (const line of text.split('\n')) {
    if (/^[0-9a-f]{4} {2}/.test(line)) inVendor = line.startsWith(`${NVIDIA_VENDOR_ID}  `);
    else if (/^C /.test(line)) inVendor = false;
    else if (inVendor) {
      const m = /^\t([0-9a-f]{4}) {2}(.*)$/.exec(line);
      if (m?.[1] && m[2] !== undefined) devices.set(m[1], m[2].trim());
    }
  }
  const version = /^#\s*Version:\s*(\S+)/m.exec(text)?.[1] ?? 'unknown';
  return { version, devices };
}

const words = (s: string) =>
  s
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
/** `needle`'s words appear in `hay` in order, side by side (`A10` is not in `A100`). */
function hasWords(hay: string, needle: string): boolean {
  const h = words(hay);
  const n = words(needle);
  return h.some((_, i) => n.every((w, j) => h[i + j] === w));
}

const listed = existsSync(PCI_IDS) ? nvidiaDevices(readFileSync(PCI_IDS, 'utf8')) : null;

describe('GPU_PCI_IDS', () => {
  it('has each device id once, four lower-case hex digits', () => {
    const ids = GPU_PCI_IDS.map((g) => g.deviceId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{4}$/);
  });

  it('names every marketplace model nvidia-smi names, so a vfio-pci GPU can be listed', () => {
    const covered = new Set(GPU_PCI_IDS.map((g) => marketplaceModelOf(g.name)));
    for (const model of Object.keys(NVIDIA_SMI_NAMES)) expect(covered).toContain(model);
  });

  it('gives the memory the marketplace model has, where the board is that model', () => {
    // Boards nvidia-smi names as a model of other memory: the 94 GB H100 NVL (sold as H100)
    // and the 10 GB RTX 3080s (the marketplace's RTX 3080 is the 12 GB board).
    const otherMemory = new Set(['2321', '2206', '2216']);
    for (const g of GPU_PCI_IDS) {
      const model = marketplaceModelOf(g.name);
      const memory = model ? gpuModelInfo(model)?.memory : undefined;
      if (!memory || g.memoryMib === null || otherMemory.has(g.deviceId)) continue;
      expect(`${g.deviceId} ${g.memoryMib / 1024}GB`).toBe(`${g.deviceId} ${memory}`);
    }
  });

  it('looks ids up in any spelling; an unknown id is named, not modelled', () => {
    expect(gpuByPciDeviceId('0x2330')?.name).toBe('NVIDIA H100 80GB HBM3');
    expect(gpuByPciDeviceId('2684')?.name).toBe('NVIDIA GeForce RTX 4090');
    expect(gpuByPciDeviceId('0x2B85 ')?.name).toBe('NVIDIA GeForce RTX 5090');
    expect(gpuByPciDeviceId('0x1234')).toBeNull();
    expect(unknownGpuName('0x2B00')).toBe('NVIDIA GPU 10de:2b00');
    expect(marketplaceModelOf(unknownGpuName('0x2b00'))).toBeNull();
  });

  it('names the real H100 host’s id (nvidia-smi -q: Device Id 0x233010DE) as nvidia-smi does', () => {
    const q = readFileSync(
      new URL('./fixtures/real-gpu/nvidia-smi-q.txt', import.meta.url),
      'utf8',
    );
    const raw = /Device Id\s+: 0x([0-9A-F]{4})10DE/.exec(q)?.[1] ?? '';
    const name = /Product Name\s+: (.+)/.exec(q)?.[1]?.trim();
    expect(gpuByPciDeviceId(raw)?.name).toBe(name);
  });
});

describe(`GPU_PCI_IDS against Debian's ${PCI_IDS}`, () => {
  if (!listed) {
    it.skip(`${PCI_IDS} is missing: install Debian's pci.ids package (scripts/test-prereqs.sh)`, () => {});
    return;
  }
  for (const g of GPU_PCI_IDS) {
    it(`10de:${g.deviceId} is ${g.chip} [${g.product}]`, (ctx) => {
      const description = listed.devices.get(g.deviceId);
      // A board newer than the installed list (Debian 12's is from April 2023) is not in it.
      if (description === undefined) {
        ctx.skip(`10de:${g.deviceId} is not in pci.ids ${listed.version} (newer than it)`);
        return;
      }
      const m = /^([^[]*?)\s*(?:\[(.*)\])?$/.exec(description);
      expect(m?.[1]).toBe(g.chip);
      // Some entries name only the chip (`2321  GH100`): the chip is then all there is to check.
      if (m?.[2]) expect(hasWords(m[2], g.product), `pci.ids says ${description}`).toBe(true);
    });
  }
});
