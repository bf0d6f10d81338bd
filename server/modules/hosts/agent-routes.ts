import type { FastifyInstance } from 'fastify';
import {
  agentPaths,
  enrollRequest,
  heartbeatRequest,
  instanceReport,
} from '../../../shared/contracts/agent-protocol';
import { parse } from '../../lib/validate';

/**
 * The agent protocol's server side (docs/decisions/008, shared/contracts/agent-protocol.ts):
 * hosts call these; the server never calls a host. Authenticated by the agent's bearer
 * credential, not by a session: no cookie is read or set here.
 */
export async function agentRoutes(app: FastifyInstance): Promise<void> {
  const { hosts } = app.deps;
  // Heartbeats carry a full inventory; a host with many instances sends more than the default.
  const bodyLimit = 1024 * 1024;

  app.post(agentPaths.enroll, { bodyLimit }, async (request, reply) => {
    const body = parse(enrollRequest, request.body);
    return reply.status(201).send(await hosts.enrol(body));
  });

  app.post(agentPaths.heartbeat, { bodyLimit }, async (request) => {
    const host = await hosts.authenticate(request.headers.authorization);
    const body = parse(heartbeatRequest, request.body);
    return hosts.heartbeat(host, body);
  });

  app.post<{ Params: { id: string } }>(
    `${agentPaths.report(':id')}`.replace('%3Aid', ':id'),
    { bodyLimit },
    async (request) => {
      const host = await hosts.authenticate(request.headers.authorization);
      const body = parse(instanceReport, request.body);
      return hosts.agentReport(host, request.params.id, body);
    },
  );
}
