import type { Db } from '../../db/client';
import type { AccountBook } from '../ledger/accounts';
import type { InstancesConfig } from './types';

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
}

export function createInstancesContext(
  db: Db,
  accounts: AccountBook,
  config: InstancesConfig,
): InstancesContext {
  return { db, accounts, config };
}
