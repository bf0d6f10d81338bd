import { forbidden, notFound } from '../../lib/errors';

/** Who may change which listing. */
export const listingsPolicy = {
  /**
   * A listing the caller's provider owns: 404 when it does not exist (or was removed), 403
   * when it is another provider's. `callerProviderId`: the caller's provider profile, if any.
   */
  ownedListing<T extends { listing: { providerId: number } }>(
    row: T | null | undefined,
    callerProviderId: number | null,
  ): T {
    if (!row) throw notFound('GPU listing');
    if (callerProviderId === null || row.listing.providerId !== callerProviderId)
      throw forbidden('Only the provider who listed this GPU can change it.');
    return row;
  },
};
