import { execFile } from 'node:child_process';
import type { GpuInfo, GpuInventory } from '../../shared/contracts/agent-protocol';

/** The fields asked for, in this order; the CSV columns follow it. */
export const NVIDIA_SMI_FIELDS = [
  'index',
  'name',
  'uuid',
  'memory.total',
  'memory.used',
  'utilization.gpu',
  'temperature.gpu',
  'pci.bus_id',
] as const;

export const NVIDIA_SMI_ARGS = [
  `--query-gpu=${NVIDIA_SMI_FIELDS.join(',')}`,
  '--format=csv,noheader,nounits',
];

/** nvidia-smi's words for "this GPU cannot tell": all read as null. */
const NOT_AVAILABLE =
  /^\[?(N\/A|Not Supported|Unknown Error|Insufficient Permissions|GPU is lost)\]?$/i;

function cell(value: string | undefined): string | null {
  const text = (value ?? '').trim();
  return text === '' || NOT_AVAILABLE.test(text) ? null : text;
}

function int(value: string | undefined): number | null {
  const text = cell(value);
  if (text === null || !/^\d+$/.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : null;
}

function num(value: string | undefined, min: number, max: number): number | null {
  const text = cell(value);
  if (text === null || !/^-?\d+(\.\d+)?$/.test(text)) return null;
  const n = Number(text);
  return n >= min && n <= max ? n : null;
}

/**
 * Parses `nvidia-smi --query-gpu=<NVIDIA_SMI_FIELDS> --format=csv,noheader,nounits`.
 * A line that is not a GPU (wrong column count, no numeric index) makes the whole answer an
 * error rather than half an inventory: the host then offers no GPUs and says why.
 */
export function parseNvidiaSmiCsv(text: string): GpuInventory {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (lines.length === 0) return { gpus: [], error: 'nvidia-smi reported no GPUs' };
  const gpus: GpuInfo[] = [];
  const seen = new Set<number>();
  for (const line of lines) {
    const cols = line.split(',').map((c) => c.trim());
    const index = int(cols[0]);
    if (cols.length !== NVIDIA_SMI_FIELDS.length || index === null || index > 255) {
      return { gpus: [], error: `unreadable nvidia-smi output: ${line.slice(0, 200)}` };
    }
    if (seen.has(index)) return { gpus: [], error: `nvidia-smi listed GPU ${index} twice` };
    seen.add(index);
    gpus.push({
      index,
      name: (cell(cols[1]) ?? 'Unknown GPU').slice(0, 200),
      uuid: cell(cols[2])?.slice(0, 100) ?? null,
      memoryTotalMib: int(cols[3]),
      memoryUsedMib: int(cols[4]),
      utilizationPercent: num(cols[5], 0, 100),
      temperatureC: num(cols[6], -100, 300),
      pciBusId: cell(cols[7])?.slice(0, 32) ?? null,
      // nvidia-smi sees only the GPUs on its driver (vfio-pci ones: agent/inventory/vfio-gpus.ts).
      boundTo: 'nvidia',
    });
  }
  return { gpus: gpus.sort((a, b) => a.index - b.index), error: null };
}

/**
 * nvidia-smi prints `00000000:01:00.0`; vfio-pci (`-device vfio-pci,host=`) and sysfs use
 * `0000:01:00.0`. Returns null for anything that is not a PCI address.
 */
export function pciAddressForVfio(busId: string): string | null {
  const m = /^(?:([0-9a-f]{4,8}):)?([0-9a-f]{2}):([0-9a-f]{2})\.([0-7])$/i.exec(busId.trim());
  if (!m) return null;
  const domain = (m[1] ?? '0000').slice(-4);
  return `${domain}:${m[2]}:${m[3]}.${m[4]}`.toLowerCase();
}

/** Runs nvidia-smi; a missing binary, a broken driver or a hang become `error`, never a throw. */
export function readGpuInventory(binary: string, timeoutMs = 15_000): Promise<GpuInventory> {
  return new Promise((resolve) => {
    execFile(
      binary,
      NVIDIA_SMI_ARGS,
      { timeout: timeoutMs, maxBuffer: 1024 * 1024, encoding: 'utf8' },
      (err, stdout, stderr) => {
        if (err) {
          const code = (err as NodeJS.ErrnoException).code;
          const why =
            code === 'ENOENT'
              ? `${binary} not found (no NVIDIA driver installed?)`
              : (stdout.trim() || stderr.trim() || err.message).split('\n')[0];
          resolve({ gpus: [], error: `nvidia-smi failed: ${why}`.slice(0, 1000) });
          return;
        }
        resolve(parseNvidiaSmiCsv(stdout));
      },
    );
  });
}
