import { readFile } from 'node:fs/promises';
import { sshLogin } from '../access/ssh-login';
import { PROBE_USER } from './seed';

/**
 * The readiness probe (docs/decisions/015-os-images.md): once the guest's SSH server answers,
 * the agent logs in with the instance's probe key as `rentgpu-probe`, whose one forced command
 * waits for cloud-init to finish this boot and prints its result. So "ready" means the renter
 * can log in with their key and the template's setup has run — not only that sshd answers
 * (the login works seconds before cloud-init's final stage). The real OpenSSH client pins the
 * guest's host key in the instance's own known_hosts as it logs in; the agent reports that
 * key, and the server shows its fingerprint.
 */
export type ProbeResult =
  | { kind: 'done'; errors: string[] }
  /** Not yet: no login (the keys are not written yet, sshd restarting) or no answer in time. */
  | { kind: 'not-yet'; why: string };

export async function probeCloudInit(o: {
  ssh: string;
  keyFile: string;
  knownHosts: string;
  host: string;
  port: number;
  timeoutMs: number;
}): Promise<ProbeResult> {
  const login = await sshLogin({ ...o, user: PROBE_USER });
  return login.ok
    ? { kind: 'done', errors: cloudInitErrors(login.stdout) }
    : { kind: 'not-yet', why: login.why };
}

/**
 * cloud-init's /run/cloud-init/result.json: `{"v1": {"datasource": …, "errors": [...]}}`, an
 * error per module that failed (`('scripts_user', RuntimeError(...))`). Unreadable output is
 * itself an error: nothing is assumed to have worked.
 */
export function cloudInitErrors(resultJson: string): string[] {
  try {
    const parsed = JSON.parse(resultJson) as { v1?: { errors?: unknown } };
    const errors = parsed.v1?.errors;
    if (!Array.isArray(errors)) return ['cloud-init result has no error list'];
    return errors.map((e) => String(e).slice(0, 300));
  } catch {
    return [`cloud-init result unreadable: ${resultJson.trim().slice(0, 200)}`];
  }
}

/** The host keys in a known_hosts file as OpenSSH public key lines (`type base64`). */
export async function knownHostKeys(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((words) => words.length >= 3 && !words[0]?.startsWith('#'))
    .map((words) => `${words[1]} ${words[2]}`);
}
