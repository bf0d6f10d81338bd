import type { Command } from 'commander';
import type { AccountUsage, PublicAccount } from '../../shared/contracts/public-api-account';
import { table } from '../output';
import type { Ctx } from './context';
import { registerCredits } from './credits';

/** `account balance|usage|credits`. */
export function registerAccount(root: Command, ctx: Ctx): void {
  const { api, show } = ctx;
  const account = root.command('account').description('balance and usage');
  account
    .command('balance')
    .description('your credit balance')
    .action(async () =>
      show(
        await api<PublicAccount>({ method: 'GET', path: '/account' }),
        (a) => `$${a.balance} ${a.currency}`,
      ),
    );
  account
    .command('usage')
    .description('what your instances have cost')
    .action(async () =>
      show(
        await api<AccountUsage>({ method: 'GET', path: '/account/usage' }),
        (u) =>
          `${table(u.instances, [
            ['instance', (l) => l.instanceId],
            ['gpu', (l) => l.gpuModel],
            ['plan', (l) => l.billingPlan],
            ['status', (l) => l.status],
            ['cost $', (l) => l.cost],
          ])}\nTotal: $${u.totalCost} ${u.currency}`,
      ),
    );

  registerCredits(account, ctx);
}
