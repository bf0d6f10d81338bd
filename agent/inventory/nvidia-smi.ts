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
  // The same on every row (one driver per host): the inventory's `driverVersion`.
  'driver_version',
] as const;

/** The columns before `driver_version`: answers recorded before it was asked for have only these. */
const GPU_COLUMNS = NVIDIA_SMI_FIELDS.length - 1;

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

/** `nvidia-smi -q`: `CUDA Version : 13.0` (shared/fixtures/real-gpu/nvidia-smi-q.txt). */
export const NVIDIA_SMI_CUDA_ARGS = ['-q'];

/** The contract's limits (shared/contracts/agent-protocol.ts `gpuInventory`). */
const MAX_DRIVER_VERSION = 64;
const MAX_CUDA_VERSION = 16;

/** A version as nvidia-smi prints one (`580.159.04`, `13.0`); null for anything else. */
function version(value: string | undefined | null, max: number): string | null {
  const text = cell(value ?? undefined);
  return text !== null && text.length <= max && /^\d+(\.\d+)*$/.test(text) ? text : null;
}

/**
 * The highest CUDA version the driver supports, from `nvidia-smi -q` (`CUDA Version : 13.0`) or
 * the plain `nvidia-smi` table's header (`CUDA Version: 13.0`); null where it says none.
 */
export function parseCudaVersion(text: string): string | null {
  const m = /\bCUDA Version\s*:\s*([^\s|]+)/.exec(text);
  return version(m?.[1], MAX_CUDA_VERSION);
}

/**
 * Parses `nvidia-smi --query-gpu=<NVIDIA_SMI_FIELDS> --format=csv,noheader,nounits`.
 * A line that is not a GPU (wrong column count, no numeric index) makes the whole answer an
 * error rather than half an inventory: the host then offers no GPUs and says why. An answer
 * without the `driver_version` column (every line alike) reads with no driver version.
 * `cudaVersion` is not in this answer (no --query-gpu field): null here, see readGpuInventory.
 */
export function parseNvidiaSmiCsv(text: string): GpuInventory {
  const none = { driverVersion: null, cudaVersion: null };
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (lines.length === 0) return { gpus: [], ...none, error: 'nvidia-smi reported no GPUs' };
  const gpus: GpuInfo[] = [];
  const seen = new Set<number>();
  const width = lines[0]?.split(',').length;
  let driverVersion: string | null = null;
  for (const line of lines) {
    const cols = line.split(',').map((c) => c.trim());
    const index = int(cols[0]);
    if (
      (width !== NVIDIA_SMI_FIELDS.length && width !== GPU_COLUMNS) ||
      cols.length !== width ||
      index === null ||
      index > 255
    ) {
      return { gpus: [], ...none, error: `unreadable nvidia-smi output: ${line.slice(0, 200)}` };
    }
    if (seen.has(index)) {
      return { gpus: [], ...none, error: `nvidia-smi listed GPU ${index} twice` };
    }
    seen.add(index);
    driverVersion ??= version(cols[GPU_COLUMNS], MAX_DRIVER_VERSION);
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
  return {
    gpus: gpus.sort((a, b) => a.index - b.index),
    driverVersion,
    cudaVersion: null,
    error: null,
  };
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

interface Answer {
  err: Error | null;
  stdout: string;
  stderr: string;
}

function nvidiaSmi(binary: string, args: string[], timeoutMs: number): Promise<Answer> {
  return new Promise((resolve) => {
    execFile(
      binary,
      args,
      { timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024, encoding: 'utf8' },
      (err, stdout, stderr) => resolve({ err, stdout, stderr }),
    );
  });
}

/**
 * Runs nvidia-smi; a missing binary, a broken driver or a hang become `error`, never a throw.
 * The GPUs and the driver version come from one `--query-gpu`; the CUDA version (which no
 * --query-gpu field gives) from `nvidia-smi -q`, asked only when that query answered: where
 * `-q` fails or does not say, `cudaVersion` is null and the GPUs stand.
 */
export async function readGpuInventory(binary: string, timeoutMs = 15_000): Promise<GpuInventory> {
  const { err, stdout, stderr } = await nvidiaSmi(binary, NVIDIA_SMI_ARGS, timeoutMs);
  if (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? `${binary} not found (no NVIDIA driver installed?)`
        : (stdout.trim() || stderr.trim() || err.message).split('\n')[0];
    return {
      gpus: [],
      driverVersion: null,
      cudaVersion: null,
      error: `nvidia-smi failed: ${why}`.slice(0, 1000),
    };
  }
  const inventory = parseNvidiaSmiCsv(stdout);
  if (inventory.error !== null) return inventory;
  const q = await nvidiaSmi(binary, NVIDIA_SMI_CUDA_ARGS, timeoutMs);
  return { ...inventory, cudaVersion: q.err ? null : parseCudaVersion(q.stdout) };
}
