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
import { unauthenticated } from '../../lib/errors';

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
  /**
   * Access before input: a request without a credential of a host is 401 whatever its body
   * (a 400 would tell a stranger the contract's fields).
   */
  const agentCredential = async (request: FastifyRequest) => {
    await hosts.recognise(credentialOf(request));
  };
  // A heartbeat carries a full inventory and every instance's status: more than the default.
  const bodyLimit = 1024 * 1024;

  app.post(
    agentPaths.enroll,
    {
      bodyLimit,
      schema: { body: enrollRequest, response: { 201: enrollResponse, ...errorResponses } },
    },
    async (request, reply) => reply.status(201).send(await hosts.enrol(request.body)),
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
    async (request) => hosts.heartbeat(credentialOf(request), request.body, request.ip),
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
      const work = await hosts.waitForWork(credentialOf(request), request.body.maxMs, gone.signal);
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
      const host = await hosts.authenticate(credentialOf(request), request.ip);
      return hosts.agentReport(host, request.params.id, request.body);
    },
  );
}
