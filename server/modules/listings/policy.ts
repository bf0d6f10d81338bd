import type { Db } from '../../db/client';
import { forbidden, notFound } from '../../lib/errors';
import { providersService } from '../providers/service';
import { listingsRepo } from './repo';

/** Who may change which listing. */
export const listingsPolicy = {
  /**
   * A listing the caller's provider owns: 404 when it does not exist (or was removed), 403
   * when it is another provider's.
   */
  async ownedListing(db: Db, userId: string, listingId: number) {
    const providerId = await providersService.providerIdOf(db, userId);
    const row = await listingsRepo.findById(db, listingId);
    if (!row) throw notFound('GPU listing');
    if (providerId === null || row.listing.providerId !== providerId)
      throw forbidden('Only the provider who listed this GPU can change it.');
    return row;
  },
};
