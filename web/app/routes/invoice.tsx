import { useParams } from 'wouter';
import { isSerialIdText, MONTH_PATTERN } from '../../../shared/invoice-lines';
import { Page } from '../../components/ui/page';
import {
  instanceInvoiceUrl,
  monthInvoiceUrl,
  useInvoice,
} from '../../features/invoices/api/get-invoices';
import { InvoiceDocument } from '../../features/invoices/components/invoice-document';
import NotFoundPage from './not-found';

function InvoiceView({ url, fallbackTitle }: { url: string; fallbackTitle: string }) {
  const { data, isPending, isError } = useInvoice(url);
  if (isPending) {
    return (
      <Page title={fallbackTitle}>
        <p className="mt-6 text-muted-foreground" aria-busy="true">
          Loading the invoice…
        </p>
      </Page>
    );
  }
  if (isError || !data) {
    return (
      <Page title="Invoice not found">
        <p className="mt-6 text-muted-foreground">There is no invoice of yours at this address.</p>
      </Page>
    );
  }
  return (
    <Page title={data.invoice.title}>
      <InvoiceDocument invoice={data.invoice} pdfUrl={`${url}/pdf`} />
    </Page>
  );
}

/**
 * An invoice: one instance's (/invoices/:id) or one month's (/invoices/month/:month), from the
 * server's invoice lines (the same as the PDF and the public API's), printable.
 */
export default function InvoicePage() {
  const params = useParams<{ id?: string; month?: string }>();
  if (params.month !== undefined) {
    if (!MONTH_PATTERN.test(params.month)) return <NotFoundPage />;
    return <InvoiceView url={monthInvoiceUrl(params.month)} fallbackTitle="Invoice" />;
  }
  if (!isSerialIdText(params.id)) return <NotFoundPage />;
  return <InvoiceView url={instanceInvoiceUrl(Number(params.id))} fallbackTitle="Invoice" />;
}
