import type { ApiKeyPermission, ApiKeyView, RateTier } from '../../../shared/contracts/api-keys';
import { microsToDollars } from '../../../shared/rules/money';
import type { ApiKey } from '../../db/schema';

export function presentApiKey(row: ApiKey): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    permissions: row.permissions as ApiKeyPermission[],
    rateTier: row.rateTier as RateTier,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    dailySpendCap: row.dailyCapMicros === null ? null : microsToDollars(row.dailyCapMicros),
    monthlySpendCap: row.monthlyCapMicros === null ? null : microsToDollars(row.monthlyCapMicros),
  };
}
