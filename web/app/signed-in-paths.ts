/**
 * The signed-in pages' paths (spec part 1 section 2, and the VM console), without their code:
 * signed-in-pages.ts maps each to its chunk, and the browser tests visit every one
 * (e2e/every-route.spec.ts).
 */
export const SIGNED_IN_PATHS = [
  '/marketplace',
  '/deploy',
  '/dashboard',
  '/vm-dashboard',
  '/vm-dashboard/console/:id',
  '/provider',
  '/payments',
  '/profile',
  '/settings',
  '/provider-signup',
  '/admin/provider-applications',
] as const;

export type SignedInPath = (typeof SIGNED_IN_PATHS)[number];
