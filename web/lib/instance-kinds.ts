import {
  INSTANCE_KIND_LABELS,
  INSTANCE_KINDS,
  type InstanceKind,
} from '../../shared/instance-kinds';

/**
 * Instance kinds as the pages show them (docs/decisions/025), from shared/instance-kinds.ts,
 * which loads no zod (the VM dashboard and the marketplace do not). The create form loads the
 * contract itself when it checks an image.
 */
export const KINDS: readonly InstanceKind[] = INSTANCE_KINDS;

export const KIND_LABELS: Record<InstanceKind, string> = INSTANCE_KIND_LABELS;

/** The short word a listing card's badge shows (its full label is read to screen readers). */
export const KIND_BADGES: Record<InstanceKind, string> = {
  vm: 'VM',
  container: 'Container',
};

/** What each kind means for a renter, under its choice. */
export const KIND_HINTS: Record<InstanceKind, string> = {
  vm: 'Its own kernel, with the GPU passed through.',
  container: 'An OCI image on the host’s own NVIDIA driver.',
};

/**
 * The kinds a host offers, in the order they are shown (VM first). A host that has not said
 * (a server from before kinds) runs VMs.
 */
export function offeredKinds(kinds: readonly InstanceKind[] | undefined): InstanceKind[] {
  if (kinds === undefined) return ['vm'];
  return KINDS.filter((k) => kinds.includes(k));
}

/** The kind a create sends: the renter's pick while the host offers it, else VM when offered. */
export function chosenKind(picked: InstanceKind, offered: readonly InstanceKind[]): InstanceKind {
  if (offered.includes(picked)) return picked;
  return offered.includes('vm') ? 'vm' : (offered[0] ?? 'vm');
}

/** `sha256:1a2b3c4d…`: a digest short enough for a card; the whole one goes in a title. */
export function shortDigest(digest: string): string {
  const [algorithm, hex] = digest.split(':', 2);
  if (!hex || hex.length <= 12) return digest;
  return `${algorithm}:${hex.slice(0, 8)}…`;
}
