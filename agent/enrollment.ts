import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { type AgentApi, ApiError } from './api-client';
import { loadCredential, saveCredential } from './credential';
import type { Log } from './log';
import { AGENT_VERSION, type AgentSettings } from './settings';

export class EnrollmentError extends Error {
  override name = 'EnrollmentError';
}

type EnrolSettings = Pick<
  AgentSettings,
  'serverUrl' | 'stateDir' | 'enrollToken' | 'enrollTokenFile'
>;

async function readTokenFile(file: string | null | undefined): Promise<string | null> {
  if (!file) return null;
  try {
    return (await readFile(file, 'utf8')).trim() || null;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new EnrollmentError(`Cannot read AGENT_ENROLL_TOKEN_FILE: ${(err as Error).message}`);
  }
}

/** The token is spent (or not needed): its file goes, so no copy of it outlives enrolment. */
async function forgetTokenFile(file: string | null | undefined, log: Log) {
  if (!file) return;
  await rm(file, { force: true }).catch((err: Error) =>
    log('token-file-not-removed', { error: err.message }),
  );
}

/**
 * The agent's credential for this server: the one in the state folder, else one got by
 * enrolling with the one-time token (retried while the server is unreachable, failing or
 * limiting enrolments, 429; an EnrollmentError when there is no token or the server refuses
 * it). Sets it on `api` and returns the heartbeat interval an enrolment answer named, if any.
 */
export async function ensureEnrolled(
  settings: EnrolSettings,
  api: AgentApi,
  log: Log,
  signal: AbortSignal,
): Promise<number | null> {
  const stored = await loadCredential(settings.stateDir);
  if (stored && stored.serverUrl === settings.serverUrl) {
    api.credential = stored.credential;
    log('credential-loaded', { agentId: stored.agentId });
    await forgetTokenFile(settings.enrollTokenFile, log);
    return null;
  }
  const token = settings.enrollToken ?? (await readTokenFile(settings.enrollTokenFile));
  if (!token) {
    throw new EnrollmentError(
      'Not enrolled: set AGENT_ENROLL_TOKEN_FILE (or AGENT_ENROLL_TOKEN) to the one-time token from the provider dashboard',
    );
  }
  for (let attempt = 1; !signal.aborted; attempt++) {
    try {
      const res = await api.enroll({
        token,
        hostname: os.hostname().slice(0, 253) || 'unknown',
        agentVersion: AGENT_VERSION,
      });
      await saveCredential(settings.stateDir, {
        serverUrl: settings.serverUrl,
        agentId: res.agentId,
        credential: res.credential,
      });
      api.credential = res.credential;
      log('enrolled', { agentId: res.agentId });
      await forgetTokenFile(settings.enrollTokenFile, log);
      return res.heartbeatIntervalMs ?? null;
    } catch (err) {
      // 429: the server limits enrolments per address (many hosts behind one address may
      // meet it); the token is still good, so it is tried again like an unreachable server.
      if (
        err instanceof ApiError &&
        err.status !== null &&
        err.status < 500 &&
        err.status !== 429
      ) {
        throw new EnrollmentError(`Enrolment refused: ${err.message}`);
      }
      log('enroll-retry', { attempt, error: (err as Error).message });
      await sleep(Math.min(30_000, 1000 * attempt), undefined, { signal }).catch(() => {});
    }
  }
  return null;
}
