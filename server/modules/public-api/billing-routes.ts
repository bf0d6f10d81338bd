import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../../shared/contracts/errors';
import { instanceIdParam } from '../../../shared/contracts/public-api';
import {
  type BuyCreditsAnswer,
  buyCreditsAnswer,
  buyCreditsBody,
  CSV_MEDIA_TYPE,
  instanceInvoiceAnswer,
  instanceUsageAnswer,
  invoiceQuery,
} from '../../../shared/contracts/public-api-account';
import { recordAnswer } from '../../lib/idempotency';
import { presentOrder } from '../payments/presenter';
import type { CreatedOrder } from '../payments/service';
import { keyIdempotency, requireKey } from './access';
import { invoiceCsv, presentUsage } from './billing';

/** PayPal has a page for the buyer; the local sandbox (no PayPal credentials) has none. */
function creditsAnswer(order: CreatedOrder): BuyCreditsAnswer {
  return {
    order: presentOrder(order),
    approvalUrl: order.approveUrl,
    message: order.approveUrl
      ? 'Open approvalUrl in a browser and approve the payment with PayPal. The credits are added once PayPal confirms it.'
      : 'This server runs the built-in PayPal sandbox (no PayPal credentials): there is no PayPal page for this order. Add credits on the Credits page of the web app instead.',
  };
}

/** The q-value Accept gives a media type (its most specific range: exact, its type's, any); 0 when not named. */
function acceptWeight(accept: string, type: string): number {
  let best = { specificity: -1, q: 0 };
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    const specificity =
      range === type ? 2 : range === `${type.split('/')[0]}/*` ? 1 : range === '*/*' ? 0 : -1;
    if (specificity > best.specificity) best = { specificity, q: q === undefined ? 1 : Number(q) };
  }
  return Number.isFinite(best.q) ? best.q : 0;
}

/** Whether the caller asked for the CSV form: ?format=csv, or Accept preferring text/csv to JSON. */
function wantsCsv(request: FastifyRequest, format: 'json' | 'csv' | undefined): boolean {
  if (format) return format === 'csv';
  const accept = request.headers.accept;
  if (!accept) return false;
  const csv = acceptWeight(accept, CSV_MEDIA_TYPE);
  return csv > 0 && csv > acceptWeight(accept, 'application/json');
}

/**
 * Money through the public API (registered inside publicApiRoutes): buying credits with
 * PayPal, and one instance's usage and invoice from the ledger.
 */
export function registerBillingRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { instanceBilling, invoices, clock, instances, payments } = app.deps;

  app.post(
    '/account/credits',
    {
      config: { permission: 'write', ...keyIdempotency },
      schema: {
        tags: ['Account'],
        operationId: 'buyCredits',
        summary: 'Buy credits with PayPal',
        description:
          'Creates a PayPal order for a package (`packageId`) or a custom `amount` in US dollars, as the Credits page does, and answers the page where you approve it (`approvalUrl`). Nothing is charged until you approve it at PayPal; the credits are then added to your balance. Needs the write permission, as every change does: the key only starts a payment its owner must approve in PayPal. Outside production the server uses PayPal’s sandbox (or its built-in sandbox without PayPal credentials, which has no approval page: `approvalUrl` is null).',
        body: buyCreditsBody,
        response: { 201: buyCreditsAnswer, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = requireKey(request);
      const order = await payments.createOrder(userId, request.body, {
        record: recordAnswer(request, 201, creditsAnswer),
      });
      return reply.status(201).send(creditsAnswer(order));
    },
  );

  app.get(
    '/instances/:id/usage',
    {
      schema: {
        tags: ['Instances'],
        operationId: 'getInstanceUsage',
        summary: 'What one instance has been billed',
        description:
          'From the ledger: compute and storage charges, refunds (a rental’s unused time, outage credits) and the net cost; the minutes (metered) or seconds billed.',
        params: instanceIdParam,
        response: { 200: instanceUsageAnswer, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = requireKey(request);
      const row = await instances.getOwn(userId, request.params.id);
      return { usage: presentUsage(row, await instanceBilling.money(row, clock.now())) };
    },
  );

  app.get(
    '/instances/:id/invoice',
    {
      schema: {
        tags: ['Instances'],
        operationId: 'getInstanceInvoice',
        summary: 'One instance’s invoice (JSON or CSV)',
        description:
          'Its lines from the ledger (compute, storage, a booking, refunds and credits) and the total. A draft while the instance can still be charged; final once it has ended. As CSV with `?format=csv` or `Accept: text/csv`.',
        params: instanceIdParam,
        querystring: invoiceQuery,
        response: {
          200: {
            description: 'The invoice',
            content: {
              'application/json': { schema: instanceInvoiceAnswer },
              [CSV_MEDIA_TYPE]: {
                schema: z
                  .string()
                  .describe(
                    'Columns invoice, instance_id, description, quantity, unit, unit_price, amount, currency; the last row is the total.',
                  ),
              },
            },
          },
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { userId } = requireKey(request);
      const invoice = await invoices.publicInvoice(userId, request.params.id);
      if (wantsCsv(request, request.query.format)) {
        return reply
          .type(`${CSV_MEDIA_TYPE}; charset=utf-8`)
          .header('content-disposition', `attachment; filename="${invoice.number}.csv"`)
          .send(invoiceCsv(invoice));
      }
      return reply.type('application/json; charset=utf-8').send({ invoice });
    },
  );
}
