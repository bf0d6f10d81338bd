import { Link, useLocation, useSearch } from 'wouter';
import { safeReturnPath } from '../../../shared/rules/balance-guard';
import { Page } from '../../components/ui/page';
import { useCurrentUser } from '../../features/auth/api/get-current-user';
import { InvoicesAndReceipts } from '../../features/invoices/components/invoices-and-receipts';
import { CreditPurchase } from '../../features/payments/components/credit-purchase';

export default function PaymentsPage() {
  const { user } = useCurrentUser();
  const [, navigate] = useLocation();
  // Add Credits from a launch screen (?return=/marketplace?rent=…): a path of this site only;
  // a purchase that added credits goes back there, the screen's choices in the path.
  const returnTo = safeReturnPath(new URLSearchParams(useSearch()).get('return'));
  return (
    <Page title="Add Credits" description="Buy prepaid credits for GPU rentals.">
      {user ? (
        <>
          {returnTo ? (
            <p
              className="mt-6 rounded-md border border-border bg-muted p-3 text-sm"
              data-testid="payments-return"
            >
              Once your payment is complete, you go back to where you were, with your choices kept.{' '}
              <Link href={returnTo} className="font-medium underline">
                Go back without paying
              </Link>
            </p>
          ) : null}
          <CreditPurchase
            credits={user.credits}
            timeZone={user.timezone}
            language={user.language}
            onPaid={returnTo ? () => navigate(returnTo) : undefined}
          />
          <InvoicesAndReceipts balance={user.credits} />
        </>
      ) : (
        <p className="mt-8 text-muted-foreground">Please log in to access payment options.</p>
      )}
    </Page>
  );
}
