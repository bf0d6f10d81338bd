import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../../shared/contracts/errors';
import {
  invoiceInstanceParam,
  invoiceMonthParam,
  receiptAnswer,
  receiptIdParam,
  receiptList,
  webInvoiceAnswer,
} from '../../../shared/contracts/invoices';
import { requireUser, signedIn } from '../../plugins/session';
import { invoicePdf, receiptPdf } from './documents';

/** A PDF file's bytes, sent as they are. */
const pdfBytes = z.custom<Buffer>((value) => Buffer.isBuffer(value));

const pdfResponse = (description: string) => ({
  200: { description, content: { 'application/pdf': { schema: pdfBytes } } },
  ...errorResponses,
});

/**
 * The signed-in person's invoices (per instance, per UTC month) and credit receipts, as JSON
 * for their pages and as PDF. Only the owner's: another user's is 404.
 */
export async function invoicesRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { invoices } = app.deps;

  app.get(
    '/api/invoices/instances/:id',
    {
      preValidation: signedIn,
      schema: {
        params: invoiceInstanceParam,
        response: { 200: webInvoiceAnswer, ...errorResponses },
      },
    },
    async (request) => ({
      invoice: await invoices.forInstance(requireUser(request).userId, request.params.id),
    }),
  );

  app.get(
    '/api/invoices/instances/:id/pdf',
    {
      preValidation: signedIn,
      schema: { params: invoiceInstanceParam, response: pdfResponse('The invoice as PDF') },
    },
    async (request, reply) => {
      const invoice = await invoices.forInstance(requireUser(request).userId, request.params.id);
      return sendPdf(reply, invoice.number, invoicePdf(invoice));
    },
  );

  app.get(
    '/api/invoices/months/:month',
    {
      preValidation: signedIn,
      schema: { params: invoiceMonthParam, response: { 200: webInvoiceAnswer, ...errorResponses } },
    },
    async (request) => ({
      invoice: await invoices.forMonth(requireUser(request).userId, request.params.month),
    }),
  );

  app.get(
    '/api/invoices/months/:month/pdf',
    {
      preValidation: signedIn,
      schema: { params: invoiceMonthParam, response: pdfResponse('The month’s invoice as PDF') },
    },
    async (request, reply) => {
      const invoice = await invoices.forMonth(requireUser(request).userId, request.params.month);
      return sendPdf(reply, invoice.number, invoicePdf(invoice));
    },
  );

  app.get(
    '/api/receipts',
    { preValidation: signedIn, schema: { response: { 200: receiptList, ...errorResponses } } },
    async (request) => invoices.receipts(requireUser(request).userId),
  );

  app.get(
    '/api/receipts/:id',
    {
      preValidation: signedIn,
      schema: { params: receiptIdParam, response: { 200: receiptAnswer, ...errorResponses } },
    },
    async (request) => ({
      receipt: await invoices.receipt(requireUser(request).userId, request.params.id),
    }),
  );

  app.get(
    '/api/receipts/:id/pdf',
    {
      preValidation: signedIn,
      schema: { params: receiptIdParam, response: pdfResponse('The receipt as PDF') },
    },
    async (request, reply) => {
      const receipt = await invoices.receipt(requireUser(request).userId, request.params.id);
      return sendPdf(reply, receipt.number, receiptPdf(receipt));
    },
  );
}

/** A document as a PDF download named after its number ("rentgpu-INV-….pdf"). */
function sendPdf(reply: FastifyReply, number: string, pdf: Buffer) {
  return reply
    .type('application/pdf')
    .header('content-disposition', `attachment; filename="rentgpu-${number}.pdf"`)
    .send(pdf);
}
