import type { FastifyInstance } from 'fastify';
import { createPaypalOrderBody, paypalOrderIdParam } from '../../../shared/contracts/payments';
import { recordAnswer } from '../../lib/idempotency';
import { parse } from '../../lib/validate';
import { requireUser } from '../../plugins/session';
import { ledgerService } from '../ledger/service';
import { presentCapture, presentOrder } from './presenter';
import { spendingSummary, walletHistory } from './wallet';
import { handlePaypalWebhook } from './webhook';

export async function paymentsRoutes(app: FastifyInstance): Promise<void> {
  const { payments, database, clock, paypal, env } = app.deps;

  app.get('/api/payments/paypal/setup', async (request) => {
    requireUser(request);
    return payments.setup();
  });

  app.post(
    '/api/payments/paypal/order',
    { config: { idempotency: true } },
    async (request, reply) => {
      const { userId } = requireUser(request);
      const body = parse(createPaypalOrderBody, request.body);
      const order = await payments.createOrder(userId, body, {
        record: recordAnswer(request, 201, presentOrder),
      });
      return reply.status(201).send(presentOrder(order));
    },
  );

  app.post('/api/payments/paypal/order/:orderID/capture', async (request) => {
    const { userId } = requireUser(request);
    const { orderID } = parse(paypalOrderIdParam, request.params);
    const { order } = await payments.capture(userId, orderID);
    return presentCapture(order, await ledgerService.walletBalance(database.db, userId));
  });

  /** The local sandbox's approval step; the route exists only when payments run against it. */
  if (app.deps.paypalSandbox) {
    app.post('/api/payments/sandbox/order/:orderID/approve', async (request) => {
      const { userId } = requireUser(request);
      const { orderID } = parse(paypalOrderIdParam, request.params);
      return payments.approveSandboxOrder(userId, orderID);
    });
  }

  /** PayPal calls this; it is trusted only after PayPal confirms the signature. */
  app.post('/api/payments/paypal/webhook', async (request) => {
    return handlePaypalWebhook(
      { payments, paypal, webhookId: env.PAYPAL_WEBHOOK_ID ?? null, log: request.log },
      request.headers,
      request.body,
    );
  });

  app.get('/api/payments/history', async (request) => {
    const { userId } = requireUser(request);
    return walletHistory(database.db, userId);
  });

  app.get('/api/payments/summary', async (request) => {
    const { userId } = requireUser(request);
    return spendingSummary(database.db, userId, clock.now());
  });
}
