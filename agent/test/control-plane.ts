import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import {
  type DesiredInstance,
  desiredInstance,
  enrollRequest,
  type HeartbeatRequest,
  heartbeatRequest,
  type InstanceReport,
  instanceReport,
  waitRequest,
} from '../../shared/contracts/agent-protocol';
import type { CatalogueImage } from '../../shared/contracts/images';

export interface ReceivedReport extends InstanceReport {
  accepted: boolean;
  /** The server's generation for the instance when the report arrived. */
  serverGeneration: number | null;
}

/**
 * A small control-plane server for the agent's tests: the agent protocol exactly as
 * shared/contracts/agent-protocol.ts describes it, state in memory. It is the contract the
 * real server implements: one-time tokens, bearer credentials, generations bumped at every
 * desired change, reports of an old generation ignored, terminated instances dropped from the
 * list once acknowledged.
 */
export class TestControlPlane {
  /** The address the heartbeat answer names as the host's own (none: not sent). */
  publicAddress: string | null = null;
  /** The image catalogue the heartbeat answer carries (none: not sent, as an older server). */
  images: CatalogueImage[] | null = null;
  readonly tokens = new Set<string>();
  readonly agents = new Map<string, { agentId: string; hostname: string }>();
  readonly heartbeats: HeartbeatRequest[] = [];
  readonly reports: ReceivedReport[] = [];
  private readonly desired = new Map<string, DesiredInstance>();
  /** At most this many instances per heartbeat answer, the rest in pages; null: all in one. */
  pageSize: number | null = null;
  /** Answer the agent's long poll (POST /wait) as the real server does; off: 404, as an older server. */
  longPoll = false;
  /** Unreachable as a server that went away: every call answers 503. */
  down = false;
  /** The next this many enrolments are answered 429, as the server's limit per address does. */
  limitedEnrolments = 0;
  private waiters: (() => void)[] = [];
  /** A change since the last heartbeat's answer: a wait that comes after it answers at once (as wake.ts). */
  private workPending = false;
  /** How many of the agent's long polls (POST /wait) are open now. */
  get waiting(): number {
    return this.waiters.length;
  }
  /** The last generation given to each instance, kept after it leaves the list. */
  private readonly generations = new Map<string, number>();
  private readonly acknowledged = new Map<string, InstanceReport>();
  private server: http.Server | null = null;
  url = '';

  async start(): Promise<string> {
    this.server = http.createServer((req, res) => {
      void this.handle(req, res).catch((err: Error) => {
        send(res, 500, { error: { code: 'INTERNAL', message: err.message, details: null } });
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async close() {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  newToken(): string {
    const token = `enroll-${randomBytes(12).toString('hex')}`;
    this.tokens.add(token);
    return token;
  }

  /** Places or changes an instance; every change bumps its generation. */
  setDesired(
    spec: Omit<z.input<typeof desiredInstance>, 'generation' | 'state'>,
    state: DesiredInstance['state'],
  ): DesiredInstance {
    const previous = this.desired.get(spec.id);
    const next = desiredInstance.parse({
      ...previous,
      ...spec,
      state,
      generation: (previous?.generation ?? 0) + 1,
    });
    this.desired.set(next.id, next);
    this.generations.set(next.id, next.generation);
    this.workPending = true;
    for (const wake of this.waiters.splice(0)) wake();
    return next;
  }

  /** The instance's current generation; null once it is no longer listed. */
  generationOf(id: string) {
    return this.desired.get(id)?.generation ?? null;
  }

  isListed(id: string) {
    return this.desired.has(id);
  }

  reportsFor(id: string) {
    return this.reports.filter((r) => r.id === id);
  }

  lastAccepted(id: string) {
    return this.acknowledged.get(id) ?? null;
  }

  async waitFor<T>(
    what: string,
    probe: () => T | null | undefined | false | Promise<T | null | undefined | false>,
    timeoutMs: number,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value) return value;
      if (Date.now() > deadline)
        throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
      await sleep(100);
    }
  }

  /** Waits for an accepted report of that state at the instance's current generation. */
  waitForState(id: string, state: InstanceReport['state'], timeoutMs = 240_000) {
    return this.waitFor(
      `${id} ${state}`,
      () => {
        const last = this.acknowledged.get(id);
        return last && last.state === state && last.generation === this.generations.get(id)
          ? last
          : null;
      },
      timeoutMs,
    );
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method !== 'POST') return notFound(res);
    const body = await readJson(req);
    if (url.pathname === '/api/v1/agents/enroll') {
      const parsed = enrollRequest.safeParse(body);
      if (!parsed.success) return invalid(res, parsed.error);
      if (this.limitedEnrolments > 0) {
        this.limitedEnrolments -= 1;
        res.setHeader('retry-after', '1');
        return send(res, 429, {
          error: { code: 'RATE_LIMITED', message: 'Too many wrong tries.', details: null },
        });
      }
      if (!this.tokens.delete(parsed.data.token)) {
        return send(res, 401, {
          error: {
            code: 'UNAUTHENTICATED',
            message: 'Unknown or spent enrolment token',
            details: null,
          },
        });
      }
      const agentId = `agent-${this.agents.size + 1}`;
      const credential = randomBytes(32).toString('base64url');
      this.agents.set(credential, { agentId, hostname: parsed.data.hostname });
      return send(res, 201, { agentId, credential });
    }
    const agent = this.agents.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (!agent) {
      return send(res, 401, {
        error: { code: 'UNAUTHENTICATED', message: 'Unknown agent credential', details: null },
      });
    }
    if (this.down) {
      send(res, 503, { error: { code: 'SERVICE_UNAVAILABLE', message: 'down', details: null } });
      return;
    }
    if (url.pathname === '/api/v1/agents/heartbeat') {
      const parsed = heartbeatRequest.safeParse(body);
      if (!parsed.success) return invalid(res, parsed.error);
      this.heartbeats.push(parsed.data);
      // This answer lists every instance as it is now: earlier changes are answered by it.
      this.workPending = false;
      for (const [id, d] of this.desired) {
        const ack = this.acknowledged.get(id);
        if (
          d.state === 'terminated' &&
          ack?.state === 'terminated' &&
          ack.generation === d.generation
        ) {
          this.desired.delete(id);
        }
      }
      // Paged as the real server pages (by id, after the cursor) when `pageSize` is set.
      const all = [...this.desired.values()].sort((a, b) => a.id.localeCompare(b.id));
      const cursor = parsed.data.cursor;
      const rest = cursor === undefined ? all : all.filter((d) => d.id.localeCompare(cursor) > 0);
      const page = this.pageSize === null ? rest : rest.slice(0, this.pageSize);
      const last = page[page.length - 1];
      return send(res, 200, {
        instances: page,
        ...(page.length < rest.length && last ? { nextCursor: last.id } : {}),
        ...(this.publicAddress ? { publicAddress: this.publicAddress } : {}),
        ...(this.images ? { images: this.images } : {}),
      });
    }
    if (url.pathname === '/api/v1/agents/wait' && this.longPoll) {
      const parsed = waitRequest.safeParse(body);
      if (!parsed.success) return invalid(res, parsed.error);
      const work = await new Promise<boolean>((resolve) => {
        if (this.workPending) return resolve(true);
        const wake = () => {
          clearTimeout(timer);
          resolve(true);
        };
        const timer = setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== wake);
          resolve(false);
        }, parsed.data.maxMs);
        this.waiters.push(wake);
      });
      return send(res, 200, { work });
    }
    const m = /^\/api\/v1\/agents\/instances\/([^/]+)\/report$/.exec(url.pathname);
    if (m) {
      const parsed = instanceReport.safeParse(body);
      if (!parsed.success) return invalid(res, parsed.error);
      const report = parsed.data;
      const current = this.generationOf(report.id);
      if (report.id !== decodeURIComponent(m[1] ?? '') || current === null) return notFound(res);
      // The rules the real server keeps: a report of an older generation changes nothing, and
      // terminated is final.
      const ack = this.acknowledged.get(report.id);
      const accepted =
        report.generation === current &&
        !(ack?.state === 'terminated' && ack.generation === current);
      this.reports.push({ ...report, accepted, serverGeneration: current });
      if (accepted) this.acknowledged.set(report.id, report);
      return send(res, 200, { accepted });
    }
    return notFound(res);
  }
}

function send(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
const notFound = (res: http.ServerResponse) =>
  send(res, 404, { error: { code: 'NOT_FOUND', message: 'Not found', details: null } });
const invalid = (res: http.ServerResponse, error: z.ZodError) =>
  send(res, 400, {
    error: { code: 'VALIDATION_FAILED', message: 'Invalid request', details: error.issues },
  });

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return null;
  }
}
