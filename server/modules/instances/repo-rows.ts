import { getTableColumns } from 'drizzle-orm';
import { gpuListings, instances, providers } from '../../db/schema';

export type Instance = typeof instances.$inferSelect;

/** The columns of an instance's view: the row, its listing's model and place, the provider's name. */
export const viewColumns = {
  instance: instances,
  listing: {
    model: gpuListings.model,
    location: gpuListings.location,
    isDemoHost: gpuListings.isDemoHost,
    memoryGb: gpuListings.memoryGb,
  },
  provider: { companyName: providers.companyName },
};

/** An instance with what its views need: the listing's model and place, the provider's name. */
export type InstanceRow = {
  instance: Instance;
  /** memoryGb: the GPU's memory (absent where a caller built the row by hand). */
  listing: { model: string; location: string; isDemoHost: boolean; memoryGb?: number };
  provider: { companyName: string };
  /**
   * A launch's answer only: whether the renter had an SSH key on their account when it
   * opened (its NO_SSH_KEY warning, read with the listing: listingsService.findForLaunch).
   */
  renterHasSshKey?: boolean;
};

const instanceColumns = Object.entries(getTableColumns(instances));

/** An instance row as PostgreSQL sends it from a statement written by hand, mapped as drizzle maps it. */
export function instanceFromRow(row: Record<string, unknown>): Instance {
  const instance: Record<string, unknown> = {};
  for (const [key, column] of instanceColumns) {
    if (!(column.name in row)) throw new Error(`instance row without ${column.name}`);
    const value = row[column.name];
    instance[key] = value === null ? null : column.mapFromDriverValue(value);
  }
  return instance as Instance;
}
