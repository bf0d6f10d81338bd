import { Wallet } from 'lucide-react';
import { useState } from 'react';
import { DEFAULT_PACKAGE_ID } from '../../../../shared/contracts/payments';
import { Card } from '../../../components/ui/card';
import { quoteFor, type Selection, usd } from '../selection';
import { CreditPackages } from './credit-packages';
import { CustomAmount } from './custom-amount';
import { PaymentMethods } from './payment-methods';
import { PaymentSummary } from './payment-summary';
import { WalletHistory } from './wallet-history';

interface CreditPurchaseProps {
  credits: string;
  timeZone: string;
  language: string;
  /** After a purchase that added credits: back to the launch screen that sent the renter. */
  onPaid?: () => void;
}

/** Add Credits: balance, packages, custom amount, summary, method. */
export function CreditPurchase({ credits, timeZone, language, onPaid }: CreditPurchaseProps) {
  const [selection, setSelection] = useState<Selection>({
    kind: 'package',
    id: DEFAULT_PACKAGE_ID,
  });
  const quote = quoteFor(selection);
  // Phones read balance, choice, summary, method, then history; wide screens put the
  // choice and history left of balance, summary and method. Column wrappers are
  // display:contents on phones so their cards can be ordered in one column.
  return (
    <div className="mt-8 flex flex-col gap-6 lg:grid lg:grid-cols-3">
      <div className="contents lg:col-span-2 lg:grid lg:content-start lg:gap-6">
        <Card className="order-2 p-5 lg:order-none">
          <h2 className="mb-4 text-lg font-semibold">Choose a Credit Package</h2>
          <CreditPackages
            selected={selection.kind === 'package' ? selection.id : null}
            onSelect={(id) => setSelection({ kind: 'package', id })}
          />
          <div className="mt-5 border-t border-border pt-5">
            <CustomAmount
              value={selection.kind === 'custom' ? selection.text : ''}
              onChange={(text) => setSelection({ kind: 'custom', text })}
            />
          </div>
        </Card>
        <div className="order-5 lg:order-none">
          <WalletHistory timeZone={timeZone} language={language} />
        </div>
      </div>
      <div className="contents lg:grid lg:content-start lg:gap-6">
        <Card className="order-1 p-5 lg:order-none">
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <Wallet className="h-4 w-4" aria-hidden /> Current Balance
          </p>
          <p className="mt-1 text-3xl font-bold" data-testid="payments-balance">
            {usd(credits)}
          </p>
          <p className="mt-1 text-xs text-muted-foreground">Credits are in US dollars.</p>
        </Card>
        <div className="order-3 lg:order-none">
          <PaymentSummary quote={quote} />
        </div>
        <div className="order-4 lg:order-none">
          <PaymentMethods quote={quote} onPaid={onPaid} />
        </div>
      </div>
    </div>
  );
}
