/**
 * Addresses of one instance's card, for the links that lead to it (My Dashboard, the launch
 * confirmations); the page focuses the card (use-focus-linked.ts). Features link to each
 * other's cards through these, never through each other.
 */
export const vmCardId = (vmId: number) => `vm-${vmId}`;
/** A pay-as-you-go instance (VM, deploy, API launch) on the VM Dashboard. */
export const vmCardHref = (vmId: number) => `/vm-dashboard#${vmCardId(vmId)}`;

export const rentalCardId = (rentalId: number) => `rental-${rentalId}`;
/** A booked rental on My Dashboard. */
export const rentalCardHref = (rentalId: number) => `/dashboard#${rentalCardId(rentalId)}`;
