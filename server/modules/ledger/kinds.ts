/**
 * Every kind of ledger transaction, and for each what it does to a renter's wallet and what
 * the spend caps make of it (issue 39, part 3). A posting's `kind` is typed by this table, so
 * a new kind cannot be posted until it is written here with its cap decision; the ledger
 * tests (kinds.test.ts) check that every transaction in a database that took a wallet's money
 * is of a kind the caps count, or of one they exempt for the reason given.
 */
export const LEDGER_KINDS = {
  /** Credits bought with PayPal: into the wallet. */
  paypal_purchase: { walletDebit: false },
  /** A purchase's bonus credits: into the wallet. */
  purchase_bonus: { walletDebit: false },
  /** Seed, demo and support credits: into the wallet. */
  grant: { walletDebit: false },
  /** A rental's booked hours into escrow and its $2.50 storage add-on: counted, all of it. */
  rental_start: { walletDebit: true, cap: 'counted' },
  /** A rental's end: its unused escrow back to the wallet. */
  rental_settle: { walletDebit: false },
  /** A rental that never became ready: everything back to the wallet. */
  rental_cancel: { walletDebit: false },
  /**
   * A metered instance's minutes: the storage minute it opens with, the compute minute it
   * becomes ready with, every next minute (compute and storage); counted, all of it. Its
   * refund (an instance that never became ready) is a credit of the same kind.
   */
  metered_minute: { walletDebit: true, cap: 'counted' },
  /** A long outage's credit: into the wallet. */
  outage_credit: { walletDebit: false },
  /**
   * A demo visitor's unspent credits taken back when the demo account is closed: not spend,
   * so no cap counts it (docs/decisions/010).
   */
  demo_credits_expired: {
    walletDebit: true,
    cap: { exempt: "a closed demo account's unspent credits, not a purchase" },
  },
} as const satisfies Record<
  string,
  { walletDebit: false } | { walletDebit: true; cap: 'counted' | { exempt: string } }
>;

export type LedgerKind = keyof typeof LEDGER_KINDS;

/** The kinds whose wallet debits the spend caps count. */
export const CAPPED_KINDS = (Object.keys(LEDGER_KINDS) as LedgerKind[]).filter((kind) => {
  const k: { walletDebit: boolean; cap?: unknown } = LEDGER_KINDS[kind];
  return k.walletDebit && k.cap === 'counted';
});
