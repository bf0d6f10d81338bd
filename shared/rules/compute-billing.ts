/**
 * Whether an instance's compute is being charged now, in the words every view shows beside
 * its cost (issue 39: compute is billed from ready — a verified login, docs/decisions/015 —
 * never for an image download, a boot or a start; storage from create). Pure: the VM card,
 * the rentals dashboard, the public API, the CLI and the invoice all say the same.
 */

/** While it has not been ready yet (created, downloading, booting, setting up). */
export const PROVISIONING_NOT_CHARGED = 'provisioning — not charged';
/** While a stopped instance starts again, until it is ready. */
export const STARTING_NOT_CHARGED = 'starting — not charged';
/** While its host is unreachable (docs/decisions/011, 022). */
export const UNREACHABLE_NOT_CHARGED = 'host unreachable — not charged';

/** The note beside an instance's cost, or null when its compute is charged as it runs (or it has ended or stopped). */
export function computeChargeNote(instance: {
  status: string;
  unreachableSince: Date | string | null;
}): string | null {
  if (instance.unreachableSince !== null) return UNREACHABLE_NOT_CHARGED;
  if (instance.status === 'provisioning') return PROVISIONING_NOT_CHARGED;
  if (instance.status === 'starting') return STARTING_NOT_CHARGED;
  return null;
}
