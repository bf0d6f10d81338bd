/**
 * What the invoice pages need of the invoices contract without its schemas: the kinds of day
 * line and their words, the month an address names, and the ids an address may name.
 * shared/contracts/invoices.ts re-exports these; the web imports them from here, because
 * loading the contract builds every schema it reaches (the public API's account answers,
 * payments, API keys), which cost a phone's main thread about 60 ms before the invoice showed.
 */

export const INVOICE_LINE_KINDS = ['compute', 'storage', 'refund', 'outage_credit'] as const;
export type InvoiceLineKind = (typeof INVOICE_LINE_KINDS)[number];

/** The words of each kind of day line. */
export const INVOICE_LINE_LABELS: Record<InvoiceLineKind, string> = {
  compute: 'Compute',
  storage: 'Storage',
  refund: 'Refund',
  outage_credit: 'Outage credit',
};

/** A calendar month, YYYY-MM (2000 to 2999). */
export const MONTH_PATTERN = /^2\d{3}-(0[1-9]|1[0-2])$/;

/** The largest database serial id: PostgreSQL's integer. */
export const SERIAL_ID_MAX = 2_147_483_647;

/** Whether an address's text is a serial id as shared/contracts/params.ts serialId reads it. */
export function isSerialIdText(text: string | undefined): boolean {
  if (text === undefined || !/^\d+$/.test(text)) return false;
  const id = Number(text);
  return id > 0 && id <= SERIAL_ID_MAX;
}
