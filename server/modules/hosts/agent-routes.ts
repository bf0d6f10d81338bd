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
import type { AgentHost } from './service';

declare module 'fastify' {
  interface FastifyRequest {
    /** An agent route's caller, as the route's check found it (modules/hosts/agent-routes.ts). */
    agent: AgentCaller | null;
  }
}

/**
 * Who calls an agent route: the bearer credential, parsed once, and the host it belongs to
 * where the route's check looked it up — a wait its id (`recognise`), a report the host in full
 * (`authenticate`). A heartbeat's check looks nothing up: the heartbeat's own statement
 * authenticates the credential and records the heartbeat in one (hostsRepo.recordHeartbeat).
 */
type AgentCaller = { credential: string; hostId?: string; host?: AgentHost };

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
  /** `work`, its 401 counted as a wrong guess from the caller's address (429 once over the limit). */
  const counted = async <T>(request: FastifyRequest, work: () => Promise<T>) => {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 401) throw error;
      return guesses.failed(GUESS_LIMITS.agentCredential, { ip: request.ip }, error);
    }
  };
  app.decorateRequest('agent', null);
  /**
   * Access before input: a request without a credential of a host is 401 whatever its body
   * (a 400 would tell a stranger the contract's fields). Each route's check parses the bearer
   * credential once and looks it up at most once (`lookup`); the handler uses what it found
   * (`callerOf`) and looks up nothing more. The heartbeat's check only parses: its one lookup
   * is the statement that records it (see its route).
   */
  const agentCheck =
    (
      lookup: (
        request: FastifyRequest,
        credential: string,
      ) => Promise<Omit<AgentCaller, 'credential'>>,
    ) =>
    async (request: FastifyRequest) => {
      request.agent = await counted(request, async () => {
        const credential = credentialOf(request);
        return { credential, ...(await lookup(request, credential)) };
      });
    };
  const callerOf = (request: FastifyRequest): AgentCaller => {
    if (!request.agent) throw new Error('an agent route without its check');
    return request.agent;
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
      preValidation: agentCheck(async () => ({})),
      // A body that breaks the contract reaches the handler marked (request.validationError),
      // so that the credential is checked first, and once.
      attachValidation: true,
      schema: { body: heartbeatRequest, response: { 200: heartbeatResponse, ...errorResponses } },
    },
    // One statement both authenticates and records the heartbeat (10,000 hosts make 333 a
    // second): an unknown or revoked credential is 401 from there, the one lookup. A body that
    // breaks the contract is 400 only for a host's credential: it is looked up once (401 when
    // unknown), then the validation error is answered. The address the agent calls from is
    // one the host may report (docs/decisions/013).
    async (request) => {
      const { credential } = callerOf(request);
      return counted(request, async () => {
        if (request.validationError) {
          await hosts.authenticate(credential);
          throw request.validationError;
        }
        return hosts.heartbeat(credential, request.body, request.ip);
      });
    },
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
      // Its host's id, from the once-a-minute lookup of waits (hosts.recognise).
      preValidation: agentCheck(async (_request, credential) => ({
        hostId: await hosts.recognise(credential),
      })),
      schema: { body: waitRequest, response: { 200: waitResponse, ...errorResponses } },
    },
    // Held until the host has work or maxMs passes; an agent that hangs up frees it.
    async (request, reply) => {
      // The response's close before it is sent is the agent hanging up (the request's own
      // close comes as soon as its body is read).
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      const { hostId } = callerOf(request);
      if (hostId === undefined) throw new Error('a wait without its host');
      return { work: await hosts.waitForWork(hostId, request.body.maxMs, gone.signal) };
    },
  );

  app.post(
    '/api/v1/agents/instances/:id/report',
    {
      bodyLimit,
      // The host in full: whose instance it may report, and which addresses are its own.
      preValidation: agentCheck(async (request, credential) => ({
        host: await hosts.authenticate(credential, request.ip),
      })),
      schema: {
        params: z.object({ id: z.string().max(64) }),
        body: instanceReport,
        response: { 200: instanceReportResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { host } = callerOf(request);
      if (!host) throw new Error('a report without its host');
      return hosts.agentReport(host, request.params.id, request.body);
    },
  );
}
