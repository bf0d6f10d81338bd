import { useQuery } from '@tanstack/react-query';
import type { Receipt, ReceiptList, WebInvoice } from '../../../../shared/contracts/invoices';

/**
 * Invoices and receipts: each query's key is the URL the default query function fetches; the
 * PDF is the same URL with /pdf, downloaded by the browser.
 */
export const instanceInvoiceUrl = (id: number) => `/api/invoices/instances/${id}`;
export const monthInvoiceUrl = (month: string) => `/api/invoices/months/${month}`;
export const receiptUrl = (id: string) => `/api/receipts/${id}`;

export function useInvoice(url: string) {
  return useQuery<{ invoice: WebInvoice }>({ queryKey: [url], staleTime: 0 });
}

export function useReceipt(id: string, enabled: boolean) {
  return useQuery<{ receipt: Receipt }>({ queryKey: [receiptUrl(id)], staleTime: 0, enabled });
}

export function useReceipts() {
  return useQuery<ReceiptList>({ queryKey: ['/api/receipts'], staleTime: 0 });
}
