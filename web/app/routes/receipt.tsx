import { useParams } from 'wouter';
import { receiptIdParam } from '../../../shared/contracts/invoices';
import { Page } from '../../components/ui/page';
import { receiptUrl, useReceipt } from '../../features/invoices/api/get-invoices';
import { ReceiptDocument } from '../../features/invoices/components/receipt-document';

/** The receipt of one credit purchase (/receipts/:id), printable, with its PDF. */
export default function ReceiptPage() {
  const { id = '' } = useParams<{ id: string }>();
  const valid = receiptIdParam.safeParse({ id }).success;
  const { data, isPending, isError } = useReceipt(id, valid);
  if (!valid || isError || (!isPending && !data)) {
    return (
      <Page title="Receipt not found">
        <p className="mt-6 text-muted-foreground">There is no receipt of yours at this address.</p>
      </Page>
    );
  }
  if (isPending || !data) {
    return (
      <Page title="Receipt for credits">
        <p className="mt-6 text-muted-foreground" aria-busy="true">
          Loading the receipt…
        </p>
      </Page>
    );
  }
  return (
    <Page title="Receipt for credits">
      <ReceiptDocument receipt={data.receipt} pdfUrl={`${receiptUrl(id)}/pdf`} />
    </Page>
  );
}
