import type { GpuInventory, HostInventory } from '../contracts/agent-protocol';
import type { HostReadiness, ReadinessProblem } from '../contracts/hosts';

/**
 * Host readiness (docs/decisions/021): what a host reports it has — its inventory, the
 * nvidia-smi answer and the agent's probe — turned into "ready" or "not ready: reason — fix",
 * for the host and for each GPU. Pure: the agent's `--check`, the installer (through it) and
 * the server at every heartbeat apply these same rules.
 */

/** Instance disks live on the state folder's file system: below this no VM can be made. */
export const MIN_FREE_DISK_BYTES = 10 * 1024 ** 3;

const problem = (reason: string, fix: string): ReadinessProblem => ({ reason, fix });

const NO_HARDWARE_VIRTUALISATION = problem(
  'No hardware virtualisation: neither kvm_intel nor kvm_amd is loaded.',
  'Enable VT-x or AMD-V in the firmware, then load the module (modprobe kvm_intel or modprobe kvm_amd).',
);

const EMULATED = problem(
  'VMs run emulated (slow): software emulation is allowed (AGENT_ALLOW_SOFTWARE_EMULATION) and KVM is not usable.',
  'For tests only. Enable hardware virtualisation (kvm_intel or kvm_amd) before renting this host out.',
);

function virtualisationOf(host: HostInventory): {
  mode: HostReadiness['virtualisation'];
  problem: ReadinessProblem | null;
} {
  const probe = host.readiness;
  if (host.accelerator === 'kvm') return { mode: 'hardware', problem: null };
  if (host.accelerator === 'tcg') return { mode: 'emulated', problem: null };
  if (probe?.kvmModule && probe.devKvm === 'denied') {
    return {
      mode: 'none',
      problem: problem(
        `/dev/kvm exists (${probe.kvmModule} is loaded) but the agent cannot open it read-write.`,
        'Add the agent’s user to the kvm group (usermod -aG kvm rentgpu-agent) and restart the agent.',
      ),
    };
  }
  if (probe?.kvmModule && probe.devKvm === 'absent') {
    return {
      mode: 'none',
      problem: problem(
        `${probe.kvmModule} is loaded but /dev/kvm is missing.`,
        'Reload the module (modprobe -r kvm_intel kvm_amd; modprobe kvm_intel or kvm_amd) or reboot.',
      ),
    };
  }
  return { mode: 'none', problem: NO_HARDWARE_VIRTUALISATION };
}

/** Why one GPU cannot be handed to a VM, or [] when it can. */
function gpuProblems(
  host: HostInventory,
  mode: HostReadiness['virtualisation'],
  index: number,
  pciBusId: string | null,
): ReadinessProblem[] {
  const probe = host.readiness;
  if (!probe?.gpuPassthrough) return [];
  const out: ReadinessProblem[] = [];
  if (mode !== 'hardware') {
    out.push(
      problem(
        'VMs run without KVM: a GPU cannot be passed through.',
        'Enable hardware virtualisation (kvm_intel or kvm_amd).',
      ),
    );
  }
  if (probe.iommuGroups === 0) {
    out.push(
      problem(
        'No IOMMU: /sys/kernel/iommu_groups is empty, so no GPU can be passed through with vfio-pci.',
        'Enable VT-d or AMD-Vi in the firmware and boot with intel_iommu=on (or amd_iommu=on) iommu=pt.',
      ),
    );
    return out;
  }
  const found = probe.gpus.find((g) => g.index === index);
  const where = pciBusId ?? `GPU ${index}`;
  if (!found?.iommuGroup) {
    out.push(
      problem(
        `GPU ${index} (${where}) is in no IOMMU group.`,
        'Check that the IOMMU covers this PCI slot (firmware settings; ACS).',
      ),
    );
  }
  if (found?.driver !== 'vfio-pci') {
    out.push(
      problem(
        `GPU ${index} (${where}) is bound to ${found?.driver ?? 'no driver'}, not vfio-pci.`,
        `Bind it to vfio-pci (for example: driverctl set-override ${pciBusId ? pciBusId.replace(/^0000(?=[0-9a-f]{4}:)/i, '') : '<pci-address>'} vfio-pci).`,
      ),
    );
  }
  return out;
}

export function hostReadiness(host: HostInventory, gpus: GpuInventory): HostReadiness {
  const probe = host.readiness;
  const { mode, problem: virtualisation } = virtualisationOf(host);
  const problems: ReadinessProblem[] = [];
  const notes: ReadinessProblem[] = [];
  if (virtualisation) problems.push(virtualisation);
  if (mode === 'emulated') notes.push(EMULATED);
  if (gpus.error) {
    problems.push(
      problem(
        `The NVIDIA driver does not answer: ${gpus.error}`,
        'Install the NVIDIA driver and check that nvidia-smi runs.',
      ),
    );
  } else if (gpus.gpus.length === 0) {
    problems.push(
      problem(
        'nvidia-smi lists no GPU.',
        'Check that the GPUs are seated and the driver sees them.',
      ),
    );
  }
  if (probe?.image === 'missing') {
    problems.push(
      problem(
        'The configured base image (AGENT_BASE_IMAGE) is missing.',
        'Put the image at that path, or unset AGENT_BASE_IMAGE to use the server’s catalogue.',
      ),
    );
  } else if (probe?.image === 'fetchable') {
    notes.push(
      problem(
        'No OS image is held yet: the first rental waits while it is fetched.',
        'Run the agent with --fetch-image (the installer does).',
      ),
    );
  }
  if (host.disk.freeBytes < MIN_FREE_DISK_BYTES) {
    const gib = (host.disk.freeBytes / 1024 ** 3).toFixed(1);
    problems.push(
      problem(
        `Only ${gib} GiB free on ${host.disk.path}; instance disks need at least 10 GiB.`,
        'Free space there, or point AGENT_STATE_DIR at a larger disk.',
      ),
    );
  }
  if (probe && !probe.gpuPassthrough && gpus.gpus.length > 0) {
    notes.push(
      problem(
        'GPUs are not passed through (AGENT_GPU_PASSTHROUGH=false): VMs get no GPU.',
        'For test hosts only. Set AGENT_GPU_PASSTHROUGH=true on a host that rents GPUs out.',
      ),
    );
  }
  const perGpu = gpus.gpus.map((g) => {
    const list = gpuProblems(host, mode, g.index, g.pciBusId);
    return { index: g.index, ready: list.length === 0, problems: list };
  });
  const readyGpus = perGpu.filter((g) => g.ready).map((g) => g.index);
  const firstGpuProblem = perGpu.find((g) => !g.ready)?.problems[0];
  if (perGpu.length > 0 && readyGpus.length === 0 && firstGpuProblem) {
    problems.push(
      problem(
        `No GPU can be passed through to a VM. ${firstGpuProblem.reason}`,
        firstGpuProblem.fix,
      ),
    );
  }
  return {
    ready: problems.length === 0,
    virtualisation: mode,
    problems,
    notes,
    gpus: perGpu,
    readyGpus: problems.length === 0 ? readyGpus : [],
  };
}

/**
 * Why a listing on a host with this verdict takes no rentals, or null when it can: the host's
 * first problem, else (none of the listing's GPUs is ready) its first GPU's. The server's SQL
 * (`hostCanRun`, server/modules/listings/repo.ts) says the same yes or no.
 */
export function listingBlocker(
  r: HostReadiness | null | undefined,
  gpuIndexes: readonly number[],
): ReadinessProblem | null {
  if (!r) return null;
  if (!r.ready) {
    return r.problems[0] ?? problem('The host is not ready.', 'See the host on your dashboard.');
  }
  if (gpuIndexes.length === 0 || gpuIndexes.some((i) => r.readyGpus.includes(i))) return null;
  const gpu = r.gpus.find((g) => gpuIndexes.includes(g.index) && !g.ready);
  return (
    gpu?.problems[0] ??
    problem(
      `None of this listing's GPUs (${gpuIndexes.join(', ')}) is on the host now.`,
      'Edit the listing to offer GPUs the host reports.',
    )
  );
}

/** One line for a person: "ready", or "not ready: reason — fix" (the first problem). */
export function readinessLine(r: HostReadiness): string {
  const first = r.problems[0];
  if (!first) return r.virtualisation === 'emulated' ? 'ready (VMs run emulated, slow)' : 'ready';
  return `not ready: ${first.reason} — ${first.fix}`;
}

/** The whole verdict as text (`--check`, the installer): every problem, note and GPU. */
export function readinessReport(r: HostReadiness): string[] {
  const lines = [`host: ${readinessLine(r)}`];
  for (const p of r.problems.slice(1)) lines.push(`  also: ${p.reason} — ${p.fix}`);
  for (const n of r.notes) lines.push(`  note: ${n.reason} — ${n.fix}`);
  for (const g of r.gpus) {
    const first = g.problems[0];
    lines.push(`GPU ${g.index}: ${first ? `not ready: ${first.reason} — ${first.fix}` : 'ready'}`);
    for (const p of g.problems.slice(1)) lines.push(`  also: ${p.reason} — ${p.fix}`);
  }
  return lines;
}
