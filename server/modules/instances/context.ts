import type { Db, Tx } from '../../db/client';
import type { AccountBook } from '../ledger/accounts';
import type { Instance } from './repo-rows';
import type { EndReason, InstancesConfig } from './types';

/**
 * A stop of an instance whose row the caller has locked, as its plan has it: the one way any
 * stop is made (commands/stop.ts), whoever asks — its renter, a deadline, idle stop, a wallet
 * that cannot pay, a spend cap, a readiness that could not be paid.
 */
export type StopLocked = (
  tx: Tx,
  instance: Instance,
  now: Date,
  by: EndReason,
) => Promise<Instance>;

/**
 * What every instance command and billing plan works with: the database, the ledger's
 * account book and the configuration. Nothing follows a commit here: the database writes each
 * change's event in its transaction (docs/decisions/027), and e-mail, host wakes and cache drops
 * read the log (modules/events).
 */
export interface InstancesContext {
  db: Db;
  accounts: AccountBook;
  config: InstancesConfig;
  /** Every stop (commands/stop.ts), set once the plans exist (createInstancesService). */
  stopLocked: StopLocked;
}

export function createInstancesContext(
  db: Db,
  accounts: AccountBook,
  config: InstancesConfig,
): InstancesContext {
  return {
    db,
    accounts,
    config,
    stopLocked: () => Promise.reject(new Error('the stop command is not assembled yet')),
  };
}
