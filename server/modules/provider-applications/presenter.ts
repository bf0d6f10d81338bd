import type { ProviderApplicationView } from '../../../shared/contracts/provider-application';
import type { ProviderApplicationRow } from '../../db/schema';

export function presentApplication(row: ProviderApplicationRow): ProviderApplicationView {
  return {
    id: row.id,
    userId: row.userId,
    status: row.status as ProviderApplicationView['status'],
    application: row.application,
    rejectionReason: row.rejectionReason,
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
    providerId: row.providerId,
    createdAt: row.createdAt.toISOString(),
  };
}
