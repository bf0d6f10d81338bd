import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../../shared/contracts/errors';
import {
  chargeLimitsView,
  createPaypalOrderBody,
  historyExportQuery,
  historyMinutes,
  historyMinutesQuery,
  historyPage,
  historyQuery,
  paypalCaptureResponse,
  paypalOrderIdParam,
  paypalOrderResponse,
  paypalSetupResponse,
  paypalWebhookResponse,
  sandboxApprovalResponse,
  spendingSummaryView,
} from '../../../shared/contracts/payments';
import { createGuessLimits, GUESS_LIMITS } from '../../lib/guess-limits';
import { recordAnswer } from '../../lib/idempotency';
import { requireUser, signedIn } from '../../plugins/session';
import { presentCapture, presentOrder } from './presenter';
import { handlePaypalWebhook } from './webhook';

export async function paymentsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { payments, wallet, clock, paypal, env } = app.deps;
  const webhookGuesses = createGuessLimits(app.deps.limiter);

  app.get(
    '/api/payments/paypal/setup',
    {
      preValidation: signedIn,
      schema: { response: { 200: paypalSetupResponse, ...errorResponses } },
    },
    async () => payments.setup(),
  );

  app.post(
    '/api/payments/paypal/order',
    {
      config: { idempotency: true },
      preValidation: signedIn,
      schema: {
        body: createPaypalOrderBody,
        response: { 201: paypalOrderResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      const order = await payments.createOrder(userId, request.body, {
        record: recordAnswer(request, 201, presentOrder),
      });
      return reply.status(201).send(presentOrder(order));
    },
  );

  app.post(
    '/api/payments/paypal/order/:orderID/capture',
    {
      preValidation: signedIn,
      schema: {
        params: paypalOrderIdParam,
        response: { 200: paypalCaptureResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = requireUser(request);
      const { order } = await payments.capture(userId, request.params.orderID);
      return presentCapture(order, await wallet.balance(userId));
    },
  );

  /** The local sandbox's approval step; the route exists only when payments run against it. */
  if (app.deps.paypalSandbox) {
    app.post(
      '/api/payments/sandbox/order/:orderID/approve',
      {
        preValidation: signedIn,
        schema: {
          params: paypalOrderIdParam,
          response: { 200: sandboxApprovalResponse, ...errorResponses },
        },
      },
      async (request) => {
        const { userId } = requireUser(request);
        return payments.approveSandboxOrder(userId, request.params.orderID);
      },
    );
  }

  /**
   * PayPal calls this; it is trusted only after PayPal confirms the signature. The body is
   * PayPal's event, checked by the handler after the configuration (503 before 400), so it
   * declares none.
   */
  app.post(
    '/api/payments/paypal/webhook',
    { schema: { response: { 200: paypalWebhookResponse, ...errorResponses } } },
    // Each signature is checked by a call to PayPal: an address whose deliveries keep failing
    // is refused (429) before that call; PayPal's own, which pass, are given back.
    async (request) =>
      webhookGuesses.attempt(GUESS_LIMITS.paypalWebhook, { ip: request.ip }, () =>
        handlePaypalWebhook(
          { payments, paypal, webhookId: env.PAYPAL_WEBHOOK_ID ?? null, log: request.log },
          request.headers,
          request.body,
        ),
      ),
  );

  app.get(
    '/api/payments/history',
    {
      preValidation: signedIn,
      schema: { querystring: historyQuery, response: { 200: historyPage, ...errorResponses } },
    },
    async (request) => {
      const { userId } = requireUser(request);
      return wallet.history(userId, request.query);
    },
  );

  app.get(
    '/api/payments/history/minutes',
    {
      preValidation: signedIn,
      schema: {
        querystring: historyMinutesQuery,
        response: { 200: historyMinutes, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = requireUser(request);
      return wallet.historyMinutes(userId, request.query);
    },
  );

  app.get(
    '/api/payments/history/export',
    {
      preValidation: signedIn,
      schema: {
        querystring: historyExportQuery,
        response: {
          200: {
            description: 'The credit history as CSV',
            content: { 'text/csv': { schema: z.string() } },
          },
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      const day = clock.now().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="rentgpu-credit-history-${day}.csv"`)
        .send(await wallet.historyCsv(userId, request.query.type));
    },
  );

  app.get(
    '/api/payments/summary',
    {
      preValidation: signedIn,
      schema: { response: { 200: spendingSummaryView, ...errorResponses } },
    },
    async (request) => {
      const { userId } = requireUser(request);
      return wallet.summary(userId, clock.now());
    },
  );

  app.get(
    '/api/payments/limits',
    {
      preValidation: signedIn,
      schema: { response: { 200: chargeLimitsView, ...errorResponses } },
    },
    async (request) => {
      const { userId } = requireUser(request);
      return wallet.limits(userId, clock.now());
    },
  );
}
