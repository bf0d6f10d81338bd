import type { Tx } from '../db/client';
import { randomToken, sha256 } from '../lib/crypto';
import { DEMO_USER, VISITOR_DEMO_PROVIDER } from './demo-data';
import { createListing, createProvider, createUser } from './factories';

/** Where demo visitors' addresses live: a reserved name, so no e-mail ever reaches anyone. */
export const DEMO_VISITOR_EMAIL_DOMAIN = 'demo.rentgpu.invalid';

/**
 * What a visitor's own provider is called: it says it is theirs, beside the shared seeded
 * "Demo Compute Co." (issue 26 part 4), which lists other GPUs (issue 42).
 */
export const VISITOR_DEMO_PROVIDER_NAME = 'Your demo provider';

/**
 * A demo visitor's own world, made with the seed's factories inside the caller's
 * transaction: an account like the seeded "Demo User" with the same $100.00 granted through
 * the ledger, and a sandbox provider of their own ("Your demo provider", VISITOR_DEMO_PROVIDER) with its listings, every unit free
 * (nobody else rents a sandbox provider's units). See
 * docs/decisions/010-a-demo-account-per-visitor.md.
 */
export async function createDemoVisitor(tx: Tx, now: Date) {
  const user = await createUser(tx, {
    email: `demo-${sha256(randomToken()).slice(0, 16)}@${DEMO_VISITOR_EMAIL_DOMAIN}`,
    firstName: DEMO_USER.firstName,
    lastName: DEMO_USER.lastName,
    credits: DEMO_USER.credits,
    isDemo: true,
    createdAt: now,
  });
  const { listings, ...provider } = VISITOR_DEMO_PROVIDER;
  const created = await createProvider(tx, {
    ...provider,
    companyName: VISITOR_DEMO_PROVIDER_NAME,
    userId: user.id,
    isSandbox: true,
  });
  for (const { history: _new, ...listing } of listings) {
    const total = listing.totalCount ?? 1;
    await createListing(tx, {
      ...listing,
      providerId: created.id,
      totalCount: total,
      availableCount: total,
      isDemoHost: true,
    });
  }
  return { userId: user.id, providerId: created.id };
}
