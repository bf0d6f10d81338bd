/**
 * VM dashboard limits and defaults (docs/rules.md, Business constants). Apart from the contract
 * (contracts/kvm.ts, which re-exports them) so the VM dashboard can read them without loading
 * zod and building every schema.
 */
export const VM_LIMITS = {
  cpu_cores: { min: 2, max: 16, default: 4 },
  ram_gb: { min: 8, max: 128, default: 16 },
  disk_gb: { min: 50, max: 1000, default: 100 },
} as const;
export const DEFAULT_VM_GPU = 'RTX 4070';
export const VM_TEMPLATES = ['ubuntu22', 'windows11'] as const;
export type VmTemplate = (typeof VM_TEMPLATES)[number];
export const DEFAULT_VM_TEMPLATE: VmTemplate = 'ubuntu22';
export const VM_TEMPLATE_LABELS: Record<VmTemplate, string> = {
  ubuntu22: 'Ubuntu 22.04',
  windows11: 'Windows 11',
};
/** The instance list is polled this often. */
export const VM_POLL_MS = 30_000;
