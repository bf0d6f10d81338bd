import type {
  ContainerProbe,
  GpuInfo,
  GpuInventory,
  HostInventory,
} from '../contracts/agent-protocol';
import type { HostReadiness, KindReadiness, ReadinessProblem } from '../contracts/hosts';
import { INSTANCE_KINDS, type InstanceKind } from '../instance-kinds';

/**
 * Host readiness (docs/decisions/021, per kind since 025): what a host reports it has — its
 * inventory, its GPUs (nvidia-smi's and those bound to vfio-pci) and the agent's probe — turned
 * into "ready" or "not ready: reason — fix", for each kind of instance the host offers (a `vm`,
 * its GPUs passed through with vfio-pci; a `container`, on the host's NVIDIA driver through
 * CDI), for the host and for each GPU. Pure: the agent's `--check`, the installer (through it)
 * and the server at every heartbeat apply these same rules.
 */

/** Instance disks live on the state folder's file system: below this no VM can be made. */
export const MIN_FREE_DISK_BYTES = 10 * 1024 ** 3;

/**
 * NVIDIA Container Toolkit releases with a known container escape, and the release that fixed
 * each. A host that sells containers must run a toolkit at least MIN_TOOLKIT_VERSION.
 *
 * - CVE-2024-0132 (a crafted image reaches the host's file system; TOCTOU): "all versions up
 *   to and including v1.16.1" are affected, per the CVE record NVIDIA published (cvelistV5
 *   cves/2024/0xxx/CVE-2024-0132.json) and NVIDIA's bulletin (nvidia.custhelp.com answer 5582);
 *   the toolkit's release notes call 1.16.2 the release with "critical security updates" for it
 *   (NVIDIA/cloud-native-docs pull request 106). Fixed in 1.16.2.
 * - CVE-2025-23266 ("NVIDIAScape": code execution with elevated permissions from a hook that
 *   initialises the container): "all versions up to and including 1.17.7 (CDI mode only for
 *   versions prior to 1.17.5)", per its CVE record (cvelistV5 cves/2025/23xxx/
 *   CVE-2025-23266.json) and NVIDIA's bulletin (nvidia.custhelp.com answer 5659); distributions
 *   shipped 1.17.8 to fix it (microsoft/azurelinux pull request 14382). Fixed in 1.17.8.
 */
export const TOOLKIT_ESCAPES = [
  { cve: 'CVE-2024-0132', fixedIn: '1.16.2' },
  { cve: 'CVE-2025-23266', fixedIn: '1.17.8' },
] as const;
export const MIN_TOOLKIT_VERSION = '1.17.8';

const CDI_GENERATE = 'nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml';

const problem = (reason: string, fix: string): ReadinessProblem => ({ reason, fix });

/**
 * On a host that offers both kinds, each problem of one kind is said with its kind, so a
 * provider (and `listingBlocker`) can tell which kind a GPU cannot serve and why.
 */
export const KIND_PREFIX: Record<InstanceKind, string> = { vm: 'VMs: ', container: 'Containers: ' };
const withKind = (kind: InstanceKind, p: ReadinessProblem) =>
  problem(`${KIND_PREFIX[kind]}${p.reason}`, p.fix);

const NOT_OFFERED: Record<InstanceKind, ReadinessProblem> = {
  vm: problem(
    'This host does not offer VMs: its agent runs containers only (AGENT_DRIVERS).',
    'Add vm to AGENT_DRIVERS to rent its GPUs as VMs.',
  ),
  container: problem(
    'This host does not offer containers: its agent runs VMs only (AGENT_DRIVERS).',
    'Set AGENT_DRIVERS=vm,container (with Podman and the NVIDIA Container Toolkit installed) to rent its GPUs as containers.',
  ),
};

const NO_HARDWARE_VIRTUALISATION = problem(
  'No hardware virtualisation: neither kvm_intel nor kvm_amd is loaded.',
  'Enable VT-x or AMD-V in the firmware, then load the module (modprobe kvm_intel or modprobe kvm_amd).',
);

const EMULATED = problem(
  'VMs run emulated (slow): software emulation is allowed (AGENT_ALLOW_SOFTWARE_EMULATION) and KVM is not usable.',
  'For tests only. Enable hardware virtualisation (kvm_intel or kvm_amd) before renting this host out.',
);

const NO_GPU = problem(
  'No GPU found: nvidia-smi lists none and none is bound to vfio-pci.',
  'Check that the GPUs are seated and that the nvidia or vfio-pci driver has them (lspci -nnk -d 10de:).',
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

/** `0000:41:00.0` from nvidia-smi's `00000000:41:00.0`, for the commands a fix names. */
const shortAddress = (pciBusId: string | null) =>
  pciBusId ? pciBusId.replace(/^0000(?=[0-9a-f]{4}:)/i, '') : '<pci-address>';

/** One kind's verdict before it is offered or not: its problems and each GPU's. */
interface KindFacts {
  problems: ReadinessProblem[];
  gpus: Map<number, ReadinessProblem[]>;
  notes: ReadinessProblem[];
}

/** Why one GPU cannot be handed to a VM, or [] when it can. */
function vmGpuProblems(
  host: HostInventory,
  mode: HostReadiness['virtualisation'],
  gpu: GpuInfo,
): ReadinessProblem[] {
  const probe = host.readiness;
  const { index, pciBusId } = gpu;
  const where = pciBusId ?? `GPU ${index}`;
  if (!probe) return [];
  if (!probe.gpuPassthrough) {
    // A test host (software emulation allowed) rents VMs without a GPU, and says so in a note;
    // a real host would sell a GPU VM that has none (issue 38): not for VMs.
    if (probe.softwareEmulation) return [];
    return [
      problem(
        `GPU ${index} (${where}) is not passed through: GPU passthrough is off (AGENT_GPU_PASSTHROUGH=false), so a VM would get no GPU.`,
        'Set AGENT_GPU_PASSTHROUGH=true on a host with an IOMMU and the GPU bound to vfio-pci, or rent the GPU as a container (AGENT_DRIVERS=container).',
      ),
    ];
  }
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
  // A GPU nvidia-smi lists is on the nvidia driver, whatever else was read.
  const driver = gpu.boundTo === 'nvidia' ? 'nvidia' : (found?.driver ?? null);
  if (!found?.iommuGroup) {
    out.push(
      problem(
        `GPU ${index} (${where}) is in no IOMMU group.`,
        'Check that the IOMMU covers this PCI slot (firmware settings; ACS).',
      ),
    );
  }
  if (driver !== 'vfio-pci') {
    out.push(
      problem(
        `GPU ${index} (${where}) is bound to ${driver ?? 'no driver'}, not vfio-pci.`,
        `Bind it to vfio-pci (for example: driverctl set-override ${shortAddress(pciBusId)} vfio-pci).`,
      ),
    );
  }
  return out;
}

function vmFacts(
  host: HostInventory,
  gpus: GpuInventory,
  mode: HostReadiness['virtualisation'],
  virtualisation: ReadinessProblem | null,
  common: { driver: ReadinessProblem | null; disk: ReadinessProblem | null },
): KindFacts {
  const probe = host.readiness;
  const problems: ReadinessProblem[] = [];
  const notes: ReadinessProblem[] = [];
  if (virtualisation) problems.push(virtualisation);
  if (mode === 'emulated') notes.push(EMULATED);
  // nvidia-smi failing hides only the GPUs on the nvidia driver: VMs take those on vfio-pci.
  const onVfio = gpus.gpus.some((g) => g.boundTo === 'vfio-pci');
  if (common.driver && !onVfio) problems.push(common.driver);
  else if (!gpus.error && gpus.gpus.length === 0) problems.push(NO_GPU);
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
  if (common.disk) problems.push(common.disk);
  if (probe && !probe.gpuPassthrough && probe.softwareEmulation && gpus.gpus.length > 0) {
    notes.push(
      problem(
        'GPUs are not passed through (AGENT_GPU_PASSTHROUGH=false): VMs get no GPU.',
        'For test hosts only. Set AGENT_GPU_PASSTHROUGH=true on a host that rents GPUs out.',
      ),
    );
  }
  const perGpu = new Map(gpus.gpus.map((g) => [g.index, vmGpuProblems(host, mode, g)]));
  const first = [...perGpu.values()].find((list) => list.length > 0)?.[0];
  if (perGpu.size > 0 && [...perGpu.values()].every((l) => l.length > 0) && first) {
    problems.push(problem(`No GPU can be passed through to a VM. ${first.reason}`, first.fix));
  }
  return { problems, gpus: perGpu, notes };
}

/** The release a toolkit version string (`1.17.8`, `v1.16.1`, `1.17.0-rc.1`) is, or null. */
function toolkitRelease(version: string): { parts: number[]; prerelease: boolean } | null {
  const m = /(\d+)\.(\d+)\.(\d+)([-~]rc[.\d]*)?/i.exec(version);
  if (!m) return null;
  return { parts: [Number(m[1]), Number(m[2]), Number(m[3])], prerelease: Boolean(m[4]) };
}

/** Below `fixedIn`: a release before it, or a release candidate of it. */
function before(v: { parts: number[]; prerelease: boolean }, fixedIn: string): boolean {
  const fixed = fixedIn.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const a = v.parts[i] ?? 0;
    const b = fixed[i] ?? 0;
    if (a !== b) return a < b;
  }
  return v.prerelease;
}

/**
 * The known container escapes of an NVIDIA Container Toolkit version: [] for a fixed one,
 * null when the version cannot be read (then it cannot be shown to be fixed).
 */
export function toolkitEscapes(version: string): (typeof TOOLKIT_ESCAPES)[number][] | null {
  const release = toolkitRelease(version);
  if (!release) return null;
  return TOOLKIT_ESCAPES.filter((e) => before(release, e.fixedIn));
}

function toolkitProblem(c: ContainerProbe, sellsGpus: boolean): ReadinessProblem | null {
  const upgrade = `Upgrade nvidia-container-toolkit to ${MIN_TOOLKIT_VERSION} or later, then run ${CDI_GENERATE}.`;
  if (c.toolkitVersion === null) {
    // A CDI spec can be there without the toolkit (written elsewhere, or the toolkit removed
    // since): what matters is that the hooks it names are not a known escape.
    if (!sellsGpus) return null;
    return problem(
      'The NVIDIA Container Toolkit is not installed (no nvidia-ctk): its version cannot be checked for known container escapes.',
      `Install nvidia-container-toolkit ≥ ${MIN_TOOLKIT_VERSION} and run ${CDI_GENERATE}.`,
    );
  }
  const escapes = toolkitEscapes(c.toolkitVersion);
  if (escapes === null) {
    return problem(
      `The NVIDIA Container Toolkit reports a version that cannot be read (“${c.toolkitVersion}”): it may have a known container escape.`,
      upgrade,
    );
  }
  if (escapes.length === 0) return null;
  const which = escapes.map((e) => `${e.cve}, fixed in ${e.fixedIn}`).join('; ');
  return problem(
    `NVIDIA Container Toolkit ${c.toolkitVersion} has a known container escape (${which}).`,
    upgrade,
  );
}

/** Why one GPU cannot be handed to a container, or [] when it can. */
function containerGpuProblems(gpu: GpuInfo, c: ContainerProbe | null): ReadinessProblem[] {
  const where = gpu.pciBusId ?? `GPU ${gpu.index}`;
  if (gpu.boundTo === 'vfio-pci') {
    return [
      problem(
        `GPU ${gpu.index} (${where}) is bound to vfio-pci: a container runs on the host’s NVIDIA driver, so only a VM can have this GPU.`,
        `To rent it as a container, give it back to the nvidia driver (driverctl unset-override ${shortAddress(gpu.pciBusId)}) and run ${CDI_GENERATE}.`,
      ),
    ];
  }
  const names = new Set(c?.cdi.gpuDevices ?? []);
  if (names.has('all') || names.has(String(gpu.index)) || (gpu.uuid && names.has(gpu.uuid))) {
    return [];
  }
  const why = c?.cdi.error ? ` (${c.cdi.error})` : '';
  return [
    problem(
      `GPU ${gpu.index} (${where}) is in no CDI spec${why}: Podman cannot hand it to a container.`,
      `Run ${CDI_GENERATE} (again after adding, moving or rebinding GPUs).`,
    ),
  ];
}

function containerFacts(
  host: HostInventory,
  gpus: GpuInventory,
  common: { driver: ReadinessProblem | null; disk: ReadinessProblem | null },
): KindFacts {
  const c = host.readiness?.container ?? null;
  const problems: ReadinessProblem[] = [];
  const notes: ReadinessProblem[] = [];
  const podmanFix =
    'Install Podman and runc (apt-get install podman runc) and check that podman info runs as the agent’s user.';
  if (!c) {
    problems.push(
      problem(
        'The agent reports nothing about containers (Podman, CDI, the NVIDIA Container Toolkit).',
        'Update the agent and run it with container in AGENT_DRIVERS: it then checks them at every heartbeat.',
      ),
    );
  } else if (!c.podman) {
    problems.push(problem(`Podman does not answer${c.error ? `: ${c.error}` : '.'}`, podmanFix));
  } else if (c.trial === 'failed') {
    problems.push(
      problem(
        `A trial container did not run: ${c.error ?? 'Podman gave no reason.'}`,
        'Fix what Podman says, then run the agent with --check to try again.',
      ),
    );
  } else if (c.error) {
    problems.push(problem(`Podman cannot run containers: ${c.error}`, podmanFix));
  } else if (!c.runtime) {
    problems.push(
      problem(
        'Podman has no OCI runtime that works.',
        'Install runc (apt-get install runc): crun refuses hosts whose cgroups are in hybrid mode.',
      ),
    );
  }
  if (common.driver) problems.push(common.driver);
  else if (gpus.gpus.length === 0) problems.push(NO_GPU);
  const sellsGpus = gpus.gpus.some((g) => g.boundTo !== 'vfio-pci');
  const toolkit = c ? toolkitProblem(c, sellsGpus) : null;
  if (toolkit) problems.push(toolkit);
  if (common.disk) problems.push(common.disk);
  if (c && !c.diskLimit.enforced) {
    notes.push(
      problem(
        `A container’s disk size cannot be enforced on this host${c.diskLimit.reason ? `: ${c.diskLimit.reason}` : '.'}`,
        'Put Podman’s storage on XFS mounted with project quotas (prjquota) to enforce it; until then a renter’s container can fill the disk.',
      ),
    );
  }
  const perGpu = new Map(gpus.gpus.map((g) => [g.index, containerGpuProblems(g, c)]));
  const first = [...perGpu.values()].find((list) => list.length > 0)?.[0];
  if (perGpu.size > 0 && [...perGpu.values()].every((l) => l.length > 0) && first) {
    problems.push(problem(`No GPU can be handed to a container. ${first.reason}`, first.fix));
  }
  return { problems, gpus: perGpu, notes };
}

const sameProblem = (a: ReadinessProblem, b: ReadinessProblem) =>
  a.reason === b.reason && a.fix === b.fix;

export function hostReadiness(host: HostInventory, gpus: GpuInventory): HostReadiness {
  const offered = INSTANCE_KINDS.filter((k) => (host.drivers ?? ['vm']).includes(k));
  const both = offered.length > 1;
  const { mode, problem: virtualisation } = virtualisationOf(host);
  // Problems of the host itself, the same for every kind (said once, without a kind).
  const common = {
    driver: gpus.error
      ? problem(
          `The NVIDIA driver does not answer: ${gpus.error}`,
          'Install the NVIDIA driver and check that nvidia-smi runs.',
        )
      : null,
    disk:
      host.disk.freeBytes < MIN_FREE_DISK_BYTES
        ? problem(
            `Only ${(host.disk.freeBytes / 1024 ** 3).toFixed(1)} GiB free on ${host.disk.path}; instance disks need at least 10 GiB.`,
            'Free space there, or point AGENT_STATE_DIR at a larger disk.',
          )
        : null,
  };
  const shared = [common.driver, common.disk, NO_GPU].filter((p) => p !== null);
  const facts: Record<InstanceKind, KindFacts> = {
    vm: vmFacts(host, gpus, mode, virtualisation, common),
    container: containerFacts(host, gpus, common),
  };

  const kinds = {} as Record<InstanceKind, KindReadiness>;
  for (const kind of INSTANCE_KINDS) {
    const f = facts[kind];
    if (!offered.includes(kind)) {
      kinds[kind] = { offered: false, ready: false, problems: [NOT_OFFERED[kind]], readyGpus: [] };
      continue;
    }
    const ready = f.problems.length === 0;
    const readyGpus = ready
      ? gpus.gpus.filter((g) => (f.gpus.get(g.index) ?? []).length === 0).map((g) => g.index)
      : [];
    kinds[kind] = { offered: true, ready, problems: f.problems, readyGpus };
  }

  const ready = offered.some((k) => kinds[k].ready);
  const problems: ReadinessProblem[] = [];
  if (!ready) {
    for (const kind of offered) {
      for (const p of kinds[kind].problems) {
        const said = both && !shared.some((s) => sameProblem(s, p)) ? withKind(kind, p) : p;
        if (!problems.some((q) => sameProblem(q, said))) problems.push(said);
      }
    }
  }
  const notes = offered.flatMap((k) => facts[k].notes);
  const perGpu = gpus.gpus.map((g) => {
    const lists = offered.map((k) => [k, facts[k].gpus.get(g.index) ?? []] as const);
    return {
      index: g.index,
      // It serves some kind the host offers; its problems say why not the others.
      ready: lists.some(([, list]) => list.length === 0),
      problems: lists.flatMap(([k, list]) => (both ? list.map((p) => withKind(k, p)) : list)),
    };
  });
  const readyGpus = [...new Set(offered.flatMap((k) => kinds[k].readyGpus))].sort((a, b) => a - b);
  return { ready, virtualisation: mode, problems, notes, gpus: perGpu, readyGpus, kinds };
}

const NOT_READY = problem('The host is not ready.', 'See the host on your dashboard.');

/**
 * Why a listing on a host with this verdict takes no rentals of `kind` (absent: of any kind
 * its host offers), or null when it can: the host's (or the kind's) first problem, else one of
 * the listing's GPUs' (none of them can serve the kind). The server's SQL (`hostCanRun`,
 * server/modules/listings/) says the same yes or no for any kind: the top-level `ready` and
 * `readyGpus` are the union of the kinds'.
 */
export function listingBlocker(
  r: HostReadiness | null | undefined,
  gpuIndexes: readonly number[],
  kind?: InstanceKind,
): ReadinessProblem | null {
  if (!r) return null;
  const onHost = (readyGpus: readonly number[]) =>
    gpuIndexes.length === 0 || gpuIndexes.some((i) => readyGpus.includes(i));
  const gone = problem(
    `None of this listing's GPUs (${gpuIndexes.join(', ')}) is on the host now.`,
    'Edit the listing to offer GPUs the host reports.',
  );
  const listingGpus = r.gpus.filter((g) => gpuIndexes.includes(g.index));
  if (!r.kinds) {
    // A verdict stored before containers: the VM kind's.
    if (kind === 'container') return NOT_OFFERED.container;
    if (!r.ready) return r.problems[0] ?? NOT_READY;
    if (onHost(r.readyGpus)) return null;
    return listingGpus.find((g) => !g.ready)?.problems[0] ?? gone;
  }
  const kinds = r.kinds;
  const offered = INSTANCE_KINDS.filter((k) => kinds[k].offered);
  const considered = kind ? [kind] : offered;
  if (considered.some((k) => kinds[k].offered && kinds[k].ready && onHost(kinds[k].readyGpus))) {
    return null;
  }
  if (kind && !(kinds[kind].offered && kinds[kind].ready)) {
    return kinds[kind].problems[0] ?? NOT_READY;
  }
  if (!kind && !r.ready) return r.problems[0] ?? NOT_READY;
  const ofKind = (p: ReadinessProblem) =>
    !kind || offered.length < 2 || p.reason.startsWith(KIND_PREFIX[kind]);
  const gpuProblem = listingGpus.flatMap((g) => g.problems).find(ofKind);
  if (gpuProblem) return gpuProblem;
  // The listing's GPUs would serve a kind the host offers that is not ready now.
  const blocked = considered.find((k) => kinds[k].offered && !kinds[k].ready);
  if (blocked && listingGpus.length > 0) return kinds[blocked].problems[0] ?? NOT_READY;
  return gone;
}

/** One line for a person: "ready", or "not ready: reason — fix" (the first problem). */
export function readinessLine(r: HostReadiness): string {
  const first = r.problems[0];
  if (!first) {
    const emulatedVms = r.virtualisation === 'emulated' && r.kinds?.vm.ready !== false;
    return emulatedVms ? 'ready (VMs run emulated, slow)' : 'ready';
  }
  return `not ready: ${first.reason} — ${first.fix}`;
}

const KIND_NAMES: Record<InstanceKind, string> = { vm: 'VMs', container: 'containers' };

/**
 * The whole verdict as text (`--check`, the installer): the host, every other problem and
 * note, each kind (offered or not, ready or why not, its GPUs) and each GPU.
 */
export function readinessReport(r: HostReadiness): string[] {
  const lines = [`host: ${readinessLine(r)}`];
  for (const p of r.problems.slice(1)) lines.push(`  also: ${p.reason} — ${p.fix}`);
  for (const n of r.notes) lines.push(`  note: ${n.reason} — ${n.fix}`);
  const kinds = r.kinds;
  if (kinds) {
    for (const kind of INSTANCE_KINDS) {
      const k = kinds[kind];
      const [first, ...rest] = k.problems;
      if (!k.offered) lines.push(`${kind}: not offered (AGENT_DRIVERS)`);
      else if (k.ready) {
        const which = k.readyGpus.length > 0 ? `GPUs ${k.readyGpus.join(', ')}` : 'no GPU';
        lines.push(`${kind}: ready (${which})`);
      } else {
        lines.push(`${kind}: not ready: ${first ? `${first.reason} — ${first.fix}` : ''}`);
        for (const p of rest) lines.push(`  also: ${p.reason} — ${p.fix}`);
      }
    }
  }
  for (const g of r.gpus) {
    const serves = kinds
      ? INSTANCE_KINDS.filter((k) => kinds[k].readyGpus.includes(g.index)).map((k) => KIND_NAMES[k])
      : [];
    const [first, ...rest] = g.problems;
    if (g.ready) {
      lines.push(`GPU ${g.index}: ready${serves.length > 0 ? ` for ${serves.join(' and ')}` : ''}`);
      for (const p of g.problems) lines.push(`  not: ${p.reason} — ${p.fix}`);
    } else {
      lines.push(
        `GPU ${g.index}: ${first ? `not ready: ${first.reason} — ${first.fix}` : 'not ready'}`,
      );
      for (const p of rest) lines.push(`  also: ${p.reason} — ${p.fix}`);
    }
  }
  return lines;
}
