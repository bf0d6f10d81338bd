import type { Command } from 'commander';
import type { BuyCreditsAnswer, PublicAccount } from '../../shared/contracts/public-api-account';
import { fields } from '../output';
import { CommandError, type Ctx } from './context';

/** `rentgpu account credits <amount>`: a PayPal order and the page that approves it. */
export function registerCredits(account: Command, ctx: Ctx): void {
  account
    .command('credits')
    .description('buy credits with PayPal: prints the page where you approve the payment')
    .argument('<amount>', 'US dollars, e.g. 25 or 25.50')
    .action(async (amount: string) => {
      // The built-in sandbox has no PayPal page: an order made here could never be approved,
      // so none is made (GET /account's paymentsSandbox says which server this is).
      if (!ctx.globals().explain) {
        const me = await ctx.api<PublicAccount>({ method: 'GET', path: '/account' });
        if (me?.paymentsSandbox) {
          throw new CommandError(
            "This server runs the built-in PayPal sandbox (no PayPal credentials): it has no PayPal page to approve a payment, so no order was created. Add credits on the web app's Credits page instead.",
          );
        }
      }
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
      );
    });
}
