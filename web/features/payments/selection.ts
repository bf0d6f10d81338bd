import {
  CREDIT_PACKAGES,
  type CreatePaypalOrderBody,
  type CreditPackageId,
  findPackage,
  parseCustomAmount,
} from '../../../shared/contracts/payments';
import { formatMoney } from '../../../shared/rules/currency';
import { dollarsToMicros, microsToDollars } from '../../../shared/rules/money';

/** A package, or a custom amount as typed; choosing one clears the other. */
export type Selection = { kind: 'package'; id: CreditPackageId } | { kind: 'custom'; text: string };

export interface Quote {
  label: string;
  amount: string;
  bonus: string;
  total: string;
  body: CreatePaypalOrderBody;
}

/** What the summary shows and the order asks for; null until the choice is valid. */
export function quoteFor(selection: Selection): Quote | null {
  if (selection.kind === 'package') {
    const pkg = findPackage(selection.id) ?? CREDIT_PACKAGES[2];
    const total = dollarsToMicros(pkg.amount) + dollarsToMicros(pkg.bonus);
    return {
      label: `${pkg.label} package`,
      amount: pkg.amount,
      bonus: pkg.bonus,
      total: microsToDollars(total),
      body: { packageId: pkg.id, amount: pkg.amount, currency: 'USD', payment_type: 'credits' },
    };
  }
  const amount = parseCustomAmount(selection.text);
  if (!amount) return null;
  return {
    label: 'Custom amount',
    amount,
    bonus: '0.00',
    total: amount,
    body: { amount, currency: 'USD', payment_type: 'credits' },
  };
}

/** "$1,250.00" from "1250.00". */
export function usd(dollars: string): string {
  return formatMoney(dollars);
}
