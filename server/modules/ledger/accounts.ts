import type { Db, Tx } from '../../db/client';
import { ledgerRepo, type SystemAccountKind } from './repo';

/**
 * The one place that finds or creates ledger accounts (wallets, provider earnings, system
 * accounts) for a database and remembers their ids. Ids never change once committed, but an
 * account created inside a transaction that rolls back vanishes — so ids are remembered only
 * after the transaction that read them commits (`transact`).
 */
export function createAccountBook(db: Db) {
  const known = {
    wallets: new Map<string, number>(),
    providers: new Map<number, number>(),
    system: new Map<SystemAccountKind, number>(),
  };
  type Seen = {
    wallets: [string, number][];
    providers: [number, number][];
    system: [SystemAccountKind, number][];
  };
  const seenIn = new WeakMap<object, Seen>();
  const cap = <K, V>(map: Map<K, V>) => {
    if (map.size > 100_000) map.clear();
  };

  return {
    /**
     * Account ids this process already knows (committed), without a statement: undefined
     * where it does not (a statement that must not look one up then takes another path).
     */
    known: {
      wallet: (userId: string) => known.wallets.get(userId),
      earnings: (providerId: number) => known.providers.get(providerId),
      system: (kind: SystemAccountKind) => known.system.get(kind),
    },

    /** A database transaction after whose commit the account ids it read are remembered. */
    async transact<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
      const seen: Seen = { wallets: [], providers: [], system: [] };
      const result = await db.transaction((tx) => {
        seenIn.set(tx, seen);
        return work(tx);
      });
      cap(known.wallets);
      cap(known.providers);
      for (const [user, id] of seen.wallets) known.wallets.set(user, id);
      for (const [provider, id] of seen.providers) known.providers.set(provider, id);
      for (const [kind, id] of seen.system) known.system.set(kind, id);
      return result;
    },

    /** The user's wallet, created on first use. */
    async wallet(tx: Tx, userId: string): Promise<number> {
      const cached = known.wallets.get(userId);
      if (cached !== undefined) return cached;
      const id = await ledgerRepo.insertWallet(tx, userId);
      seenIn.get(tx)?.wallets.push([userId, id]);
      return id;
    },

    /** The wallets of many users at once (the metered-minute job), created where missing. */
    async wallets(tx: Tx, userIds: string[]): Promise<Map<string, number>> {
      const out = new Map<string, number>();
      const missing: string[] = [];
      for (const user of new Set(userIds)) {
        const cached = known.wallets.get(user);
        if (cached === undefined) missing.push(user);
        else out.set(user, cached);
      }
      if (missing.length > 0) {
        const found = await ledgerRepo.findWallets(tx, missing);
        for (const user of missing) {
          const id = found.get(user) ?? (await ledgerRepo.insertWallet(tx, user));
          out.set(user, id);
          seenIn.get(tx)?.wallets.push([user, id]);
        }
      }
      return out;
    },

    /** A provider's earnings account, created on first use. */
    async earnings(tx: Tx, providerId: number): Promise<number> {
      const cached = known.providers.get(providerId);
      if (cached !== undefined) return cached;
      const id = await ledgerRepo.findOrCreateProviderAccount(tx, providerId);
      seenIn.get(tx)?.providers.push([providerId, id]);
      return id;
    },

    /** A shared system account (escrow, platform revenue, …), created on first use. */
    async system(tx: Tx, kind: SystemAccountKind): Promise<number> {
      const cached = known.system.get(kind);
      if (cached !== undefined) return cached;
      const id = await ledgerRepo.findOrCreateSystemAccount(tx, kind);
      seenIn.get(tx)?.system.push([kind, id]);
      return id;
    },
  };
}

export type AccountBook = ReturnType<typeof createAccountBook>;
