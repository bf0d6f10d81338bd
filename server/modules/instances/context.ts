import type { Db, Tx } from '../../db/client';
import type { AccountBook } from '../ledger/accounts';
import type { InstanceRow } from './repo';
import type { InstanceEvent, InstancesConfig } from './types';

/**
 * What every instance command and billing plan works with: the database, the ledger's
 * account book, the configuration, and the after-commit duties (read caches, alerts, the
 * host's wake-up) that follow every change.
 */
export interface InstancesContext {
  db: Db;
  accounts: AccountBook;
  config: InstancesConfig;
  /** Runs `work` in a transaction; after it commits, read caches hear and `told` is told. */
  afterCommit<T>(work: (tx: Tx) => Promise<T>, told: InstanceEvent[]): Promise<T>;
  /** After a user's action commits, the instance's host hears at once (its agent's wait). */
  tellHost(row: InstanceRow): InstanceRow;
  /** afterCommit, then tellHost: every command on one instance a host runs. */
  forHost(work: (tx: Tx) => Promise<InstanceRow>, told: InstanceEvent[]): Promise<InstanceRow>;
}

export function createInstancesContext(
  db: Db,
  accounts: AccountBook,
  config: InstancesConfig,
): InstancesContext {
  /** Events are told only after their transaction commits. */
  const afterCommit = async <T>(work: (tx: Tx) => Promise<T>, told: InstanceEvent[]) => {
    const result = await accounts.transact(work);
    config.onChange?.();
    for (const e of told) config.onInstanceEvent?.(e);
    return result;
  };
  const tellHost = (row: InstanceRow) => {
    if (row.instance.hostId !== null) config.onHostWork?.(row.instance.hostId);
    return row;
  };
  return {
    db,
    accounts,
    config,
    afterCommit,
    tellHost,
    forHost: async (work, told) => tellHost(await afterCommit(work, told)),
  };
}
