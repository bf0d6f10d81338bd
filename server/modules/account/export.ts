import { resolveSettings } from '../../../shared/contracts/settings';
import { microsToDollars } from '../../../shared/rules/money';
import type { Db } from '../../db/client';
import { presentApiKey } from '../api-keys/presenter';
import { apiKeysService } from '../api-keys/service';
import { presentMetered, presentRental } from '../instances/reads/presenter';
import type { InstancesService } from '../instances/service';
import type { PaymentsService } from '../payments/service';
import { walletHistory } from '../payments/wallet';
import { presentProvider } from '../providers/presenter';
import { providersService } from '../providers/service';
import { presentSshKey } from '../ssh-keys/presenter';
import { sshKeysService } from '../ssh-keys/service';
import { presentUserProfile } from '../users/presenter';
import { usersService } from '../users/service';

/** Everything we hold about a user, as one JSON document (Download Account Data). */
export async function exportAccountData(
  deps: { db: Db; instances: InstancesService; payments: PaymentsService },
  userId: string,
  now: Date,
) {
  const { db } = deps;
  const profile = await usersService.getProfile(db, userId);
  const [settings, provider, rentals, metered, wallet, orders, apiKeys, sshKeys] =
    await Promise.all([
      usersService.getSettings(db, userId),
      providersService.findByUserId(db, userId),
      deps.instances.listRentalsByUser(userId),
      deps.instances.listMeteredByUser(userId),
      walletHistory(db, userId, 100_000),
      deps.payments.listOrders(userId),
      apiKeysService.listAll(db, userId),
      sshKeysService.list(db, userId),
    ]);
  return {
    exportedAt: now.toISOString(),
    format: 'rentgpu-account-export/1',
    profile: presentUserProfile(profile),
    settings: resolveSettings(settings),
    providerProfile: provider ? presentProvider(provider) : null,
    rentals: rentals.map(presentRental),
    instances: metered.map(presentMetered),
    walletEntries: wallet,
    paymentOrders: orders.map((order) => ({
      id: order.id,
      provider: order.provider,
      paypalOrderId: order.paypalOrderId,
      paypalCaptureId: order.paypalCaptureId,
      packageId: order.packageId,
      amount: microsToDollars(order.amountMicros),
      bonus: microsToDollars(order.bonusMicros),
      currency: order.currency,
      status: order.status,
      createdAt: order.createdAt.toISOString(),
      completedAt: order.completedAt?.toISOString() ?? null,
    })),
    apiKeys: apiKeys.map((row) => ({
      ...presentApiKey(row),
      revokedAt: row.revokedAt?.toISOString() ?? null,
    })),
    sshKeys: sshKeys.map((row) => ({ ...presentSshKey(row), publicKey: row.publicKey })),
  };
}

/** Download Account Data for the routes (app.deps.accountExport). */
export function createAccountExport(deps: {
  db: Db;
  instances: InstancesService;
  payments: PaymentsService;
}) {
  return { exportData: (userId: string, now: Date) => exportAccountData(deps, userId, now) };
}

export type AccountExport = ReturnType<typeof createAccountExport>;
