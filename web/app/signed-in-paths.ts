/**
 * The signed-in pages' paths (the VM console included), without their code:
 * signed-in-pages.ts maps each to its chunk, and the browser tests visit every one
 * (e2e/every-route.spec.ts).
 */
export const SIGNED_IN_PATHS = [
  '/marketplace',
  '/compare',
  '/deploy',
  '/dashboard',
  '/vm-dashboard',
  '/vm-dashboard/console/:id',
  '/provider',
  '/payments',
  // The month's before the instance's: /invoices/month/… is not an instance id.
  '/invoices/month/:month',
  '/invoices/:id',
  '/receipts/:id',
  '/profile',
  '/settings',
  '/provider-signup',
  '/admin/provider-applications',
] as const;

export type SignedInPath = (typeof SIGNED_IN_PATHS)[number];
