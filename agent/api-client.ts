import type { z } from 'zod';
import {
  agentPaths,
  type EnrollRequest,
  enrollResponse,
  type HeartbeatRequest,
  heartbeatResponse,
  type InstanceReport,
  instanceReportResponse,
  waitResponse,
} from '../shared/contracts/agent-protocol';

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

/** The agent's side of the protocol: four POSTs, answers checked against the contract. */
export class AgentApi {
  credential: string | null = null;

  constructor(
    private readonly serverUrl: string,
    private readonly timeoutMs = 20_000,
  ) {}

  enroll(body: EnrollRequest) {
    return this.post(agentPaths.enroll, body, enrollResponse, false);
  }

  heartbeat(body: HeartbeatRequest) {
    return this.post(agentPaths.heartbeat, body, heartbeatResponse, true);
  }

  report(body: InstanceReport) {
    return this.post(agentPaths.report(body.id), body, instanceReportResponse, true);
  }

  /**
   * The long poll between heartbeats: true when the server says the host has work. Held up
   * to `maxMs` by the server; `signal` hangs up early.
   */
  async wait(maxMs: number, signal?: AbortSignal): Promise<boolean> {
    const answer = await this.post(agentPaths.wait, { maxMs }, waitResponse, true, {
      timeoutMs: maxMs + this.timeoutMs,
      signal,
    });
    return answer.work;
  }

  private async post<T extends z.ZodType>(
    pathname: string,
    body: unknown,
    schema: T,
    authenticated: boolean,
    options: { timeoutMs?: number; signal?: AbortSignal | undefined } = {},
  ): Promise<z.infer<T>> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (authenticated) {
      if (!this.credential) throw new ApiError('not enrolled', null);
      headers.authorization = `Bearer ${this.credential}`;
    }
    let res: Response;
    try {
      res = await fetch(new URL(pathname, this.serverUrl), {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: options.signal
          ? AbortSignal.any([
              AbortSignal.timeout(options.timeoutMs ?? this.timeoutMs),
              options.signal,
            ])
          : AbortSignal.timeout(options.timeoutMs ?? this.timeoutMs),
      });
    } catch (err) {
      throw new ApiError(`server unreachable: ${(err as Error).message}`, null);
    }
    const text = await res.text();
    if (!res.ok) throw new ApiError(`${res.status}: ${text.slice(0, 500)}`, res.status);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ApiError(`${res.status}: answer is not JSON`, res.status);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success)
      throw new ApiError(`answer does not match the contract: ${parsed.error.message}`, res.status);
    return parsed.data;
  }
}
