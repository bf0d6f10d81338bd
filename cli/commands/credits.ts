import type { Command } from 'commander';
import type { BuyCreditsAnswer } from '../../shared/contracts/public-api';
import { fields } from '../output';
import type { Ctx } from './context';

/** `rentgpu account credits <amount>`: a PayPal order and the page that approves it. */
export function registerCredits(account: Command, ctx: Ctx): void {
  account
    .command('credits')
    .description('buy credits with PayPal: prints the page where you approve the payment')
    .argument('<amount>', 'US dollars, e.g. 25 or 25.50')
    .action(async (amount: string) =>
      ctx.show(
        await ctx.api<BuyCreditsAnswer>({
          method: 'POST',
          path: '/account/credits',
          body: { amount },
        }),
        (a) =>
          `${fields([
            ['Order', a.order.id],
            ['Amount', `$${a.order.amount} ${a.order.currency}`],
            ['Credits', `$${a.order.credits}`],
            ['Approve at', a.approvalUrl],
          ])}\n${a.message}`,
      ),
    );
}
