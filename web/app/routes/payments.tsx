import { Page } from '../../components/ui/page';
import { useCurrentUser } from '../../features/auth/api/get-current-user';
import { InvoicesAndReceipts } from '../../features/invoices/components/invoices-and-receipts';
import { CreditPurchase } from '../../features/payments/components/credit-purchase';

export default function PaymentsPage() {
  const { user } = useCurrentUser();
  return (
    <Page title="Add Credits" description="Buy prepaid credits for GPU rentals.">
      {user ? (
        <>
          <CreditPurchase
            credits={user.credits}
            timeZone={user.timezone}
            language={user.language}
          />
          <InvoicesAndReceipts balance={user.credits} />
        </>
      ) : (
        <p className="mt-8 text-muted-foreground">Please log in to access payment options.</p>
      )}
    </Page>
  );
}
