import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  agentPaths,
  enrollRequest,
  enrollResponse,
  heartbeatRequest,
  heartbeatResponse,
  instanceReport,
  instanceReportResponse,
  waitRequest,
  waitResponse,
} from '../../../shared/contracts/agent-protocol';
import { errorResponses } from '../../../shared/contracts/errors';
import { AppError, unauthenticated } from '../../lib/errors';
import { createGuessLimits, GUESS_LIMITS } from '../../lib/guess-limits';

const BEARER = /^Bearer ([A-Za-z0-9_-]{16,200})$/;

/** The agent's credential from `Authorization: Bearer …`; 401 when missing or malformed. */
function credentialOf(request: FastifyRequest): string {
  const credential = BEARER.exec(request.headers.authorization ?? '')?.[1];
  if (!credential) throw unauthenticated('Unknown or revoked agent credential.');
  return credential;
}

/**
 * The agent protocol's server side (docs/decisions/008, shared/contracts/agent-protocol.ts):
 * hosts call these; the server never calls a host. Authenticated by the agent's bearer
 * credential, not by a session: no cookie is read or set here.
 */
export async function agentRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { hosts } = app.deps;
  // Guessing is limited per address (docs/architecture.md, "Limits where guessing is
  // possible"): an enrolment is counted before its check, a credential only when it fails.
  const guesses = createGuessLimits(app.deps.limiter);
  /** `work` with the request's credential; a 401 is counted, and 429 once over the limit. */
  const asAgent = async <T>(request: FastifyRequest, work: (credential: string) => Promise<T>) => {
    try {
      return await work(credentialOf(request));
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 401) throw error;
      return guesses.failed(GUESS_LIMITS.agentCredential, { ip: request.ip }, error);
    }
  };
  /**
   * Access before input: a request without a credential of a host is 401 whatever its body
   * (a 400 would tell a stranger the contract's fields).
   */
  const agentCredential = async (request: FastifyRequest) => {
    await asAgent(request, (credential) => hosts.recognise(credential));
  };
  // A heartbeat carries a full inventory and every instance's status: more than the default.
  const bodyLimit = 1024 * 1024;

  app.post(
    agentPaths.enroll,
    {
      bodyLimit,
      schema: { body: enrollRequest, response: { 201: enrollResponse, ...errorResponses } },
    },
    // A random token names no host: its target is every open token ('all').
    async (request, reply) => {
      const enrolled = await guesses.attempt(
        GUESS_LIMITS.enrolment,
        { ip: request.ip, target: 'all' },
        () => hosts.enrol(request.body),
      );
      return reply.status(201).send(enrolled);
    },
  );

  app.post(
    agentPaths.heartbeat,
    {
      bodyLimit,
      preValidation: agentCredential,
      schema: { body: heartbeatRequest, response: { 200: heartbeatResponse, ...errorResponses } },
    },
    // One statement both authenticates and records the heartbeat (10,000 hosts make 333 a
    // second): an unknown or revoked credential is 401 from there.
    // The address the agent calls from is one the host may report (docs/decisions/013).
    async (request) =>
      asAgent(request, (credential) => hosts.heartbeat(credential, request.body, request.ip)),
  );

  // Held waits are answered before the server stops, so they never delay a shutdown.
  app.addHook('preClose', (done) => {
    hosts.releaseWaits();
    done();
  });

  app.post(
    agentPaths.wait,
    {
      // Held by design: not a slow request (plugins/request-log.ts).
      config: { longPoll: true },
      preValidation: agentCredential,
      schema: { body: waitRequest, response: { 200: waitResponse, ...errorResponses } },
    },
    // Held until the host has work or maxMs passes; an agent that hangs up frees it.
    async (request, reply) => {
      // The response's close before it is sent is the agent hanging up (the request's own
      // close comes as soon as its body is read).
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      const work = await asAgent(request, (credential) =>
        hosts.waitForWork(credential, request.body.maxMs, gone.signal),
      );
      return { work };
    },
  );

  app.post(
    '/api/v1/agents/instances/:id/report',
    {
      bodyLimit,
      preValidation: agentCredential,
      schema: {
        params: z.object({ id: z.string().max(64) }),
        body: instanceReport,
        response: { 200: instanceReportResponse, ...errorResponses },
      },
    },
    async (request) => {
      const host = await asAgent(request, (credential) =>
        hosts.authenticate(credential, request.ip),
      );
      return hosts.agentReport(host, request.params.id, request.body);
    },
  );
}
