import { getTableColumns } from 'drizzle-orm';
import { rowBuilder } from '../../db/row-builder';
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
  return buildInstance(row) as Instance;
}

/** One object literal of the 62 columns (server/db/row-builder.ts: not a loop of keyed stores). */
const buildInstance = rowBuilder(
  instanceColumns.map(([key, column]) => ({ key, from: column.name, decoder: column })),
  (name) => new Error(`instance row without ${name}`),
);
