import { hasControlCharacter } from './text';

/**
 * Every command shown to a renter (a Copy button, the CLI's --print) or run for one (the CLI's
 * `instances ssh`) is built here. The user, host and port come from a provider's host, which
 * nobody trusts (docs/decisions/013): a reported user `-oProxyCommand=…` must not become an ssh
 * option, and a host `h.example;id;#` must not become a second shell command when pasted.
 *
 * Two guards, each enough for its own danger:
 * - every word goes through `shellQuote` (POSIX single quotes), so a pasted line is read back by
 *   a shell as exactly these words and runs nothing else;
 * - a value that is not a plain name (only safe characters, not starting with `-`) is given to
 *   ssh after `-l` or after `--`, where no option can start.
 * Normal values keep the familiar look: `ssh -p 22022 ubuntu@203.0.113.5`, with the options
 * that file the host key under the instance (`hostKeyOptions`).
 */

/** Characters a POSIX shell reads literally in an unquoted word (no globbing, no expansion). */
const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One word for a POSIX shell: bare when only safe characters, else single-quoted. */
export function shellQuote(word: string): string {
  if (SAFE_WORD.test(word)) return word;
  // Inside single quotes nothing is special but the closing quote: end, escape it, reopen.
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Words as one line that a shell reads back as exactly these words. */
export function shellLine(words: readonly string[]): string {
  return words.map(shellQuote).join(' ');
}

/** Where a renter logs in, as a host reported it. */
export interface SshEndpoint {
  user: string;
  host: string;
  /** null: ssh's default port. */
  port: number | null;
}

/**
 * Whether `user@host` can be written as it is: safe characters only, no leading `-` (an
 * option), no `@` (ssh splits at the last one) and no `:` in the user (scp splits at the first).
 */
function plainEndpoint({ user, host }: SshEndpoint): boolean {
  const plain = (value: string) => SAFE_WORD.test(value) && !value.startsWith('-');
  return plain(user) && plain(host) && !/[@:]/.test(user) && !host.includes('@');
}

/**
 * Why a user or host must not be handed to a program even after `-l`/`--`: empty, a leading
 * `-`, or whitespace and control characters (no real user or host name has them, and a
 * terminal could be made to show something else). Null when fine.
 */
export function unsafeEndpointReason({ user, host }: SshEndpoint): string | null {
  for (const [what, value] of [
    ['user', user],
    ['host', host],
  ] as const) {
    if (value === '') return `The SSH ${what} is empty.`;
    if (value.startsWith('-')) return `The SSH ${what} starts with "-".`;
    if (/\s/.test(value) || hasControlCharacter(value)) {
      return `The SSH ${what} contains whitespace or control characters.`;
    }
  }
  return null;
}

/**
 * The name ssh files an instance's host key under, instead of `[host]:port`. Hosts hand a port
 * to one instance after another, so keyed by address a new instance's key reads as the old
 * one's key changed ("REMOTE HOST IDENTIFICATION HAS CHANGED"); keyed by instance, a new
 * instance is a new name, and a key that changes under the same instance still warns.
 */
export function hostKeyAlias(instanceId: number): string {
  return `rentgpu-${instanceId}`;
}

/**
 * ssh's options for an instance's host key: `HostKeyAlias` (above) and `CheckHostIP=no`, so
 * that a client before OpenSSH 8.5 (where it defaulted to yes) does not also compare the key
 * with the one filed under the address, the same warning by another path.
 */
export function hostKeyOptions(instanceId: number): string[] {
  return ['-o', `HostKeyAlias=${hostKeyAlias(instanceId)}`, '-o', 'CheckHostIP=no'];
}

function portWords(flag: '-p' | '-P', port: number | null): string[] {
  return port === null ? [] : [flag, String(port)];
}

/**
 * ssh's arguments to run (not shown): `-l USER -p PORT [options] -- HOST [remote…]`. After `--`
 * the host cannot be an option and whatever follows it is the remote command.
 */
export function sshArgv(
  endpoint: SshEndpoint,
  { options = [], remote = [] }: { options?: readonly string[]; remote?: readonly string[] } = {},
): string[] {
  return [
    '-l',
    endpoint.user,
    ...portWords('-p', endpoint.port),
    ...options,
    '--',
    endpoint.host,
    ...remote,
  ];
}

/** The words after `ssh`'s options that name where to log in, as shown. */
function sshDestination(endpoint: SshEndpoint): string[] {
  return plainEndpoint(endpoint)
    ? [`${endpoint.user}@${endpoint.host}`]
    : ['-l', endpoint.user, '--', endpoint.host];
}

/**
 * The SSH command shown to a renter for instance `instanceId`:
 * `ssh -p 22022 -o HostKeyAlias=rentgpu-42 -o CheckHostIP=no ubuntu@203.0.113.5`.
 */
export function sshCommand(endpoint: SshEndpoint, instanceId: number): string {
  return shellLine([
    'ssh',
    ...portWords('-p', endpoint.port),
    ...hostKeyOptions(instanceId),
    ...sshDestination(endpoint),
  ]);
}

/**
 * An SSH tunnel line: `ssh -N -L 8888:localhost:8888 -p 22022 -o HostKeyAlias=… ubuntu@…` makes
 * the instance's `remotePort` (listening on its own localhost) reachable at `localPort` here.
 */
export function sshTunnelCommand(
  endpoint: SshEndpoint,
  instanceId: number,
  localPort: number,
  remotePort: number = localPort,
): string {
  return shellLine([
    'ssh',
    '-N',
    '-L',
    `${localPort}:localhost:${remotePort}`,
    ...portWords('-p', endpoint.port),
    ...hostKeyOptions(instanceId),
    ...sshDestination(endpoint),
  ]);
}

/** A host as scp and URLs write it: an IPv6 address in brackets. */
function bracketed(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * An scp line copying a local file to the instance: `scp -P 22022 data.tar
 * ubuntu@203.0.113.5:`. An unusual user goes in `-o User=…`, and `--` ends the options.
 */
export function scpUploadCommand(
  endpoint: SshEndpoint,
  localPath: string,
  remotePath = '',
): string {
  const port = portWords('-P', endpoint.port);
  const remote = `${bracketed(endpoint.host)}:${remotePath}`;
  return plainEndpoint(endpoint)
    ? shellLine(['scp', ...port, localPath, `${endpoint.user}@${remote}`])
    : shellLine(['scp', ...port, '-o', `User=${endpoint.user}`, '--', localPath, remote]);
}

/** Percent-encodes everything but letters, digits and `-._` (no quote or paren survives). */
function urlPart(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*~]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/**
 * The SFTP address for a file manager: `sftp://ubuntu@203.0.113.5:22022/home/ubuntu`. The path
 * is given as its folder names (the user's home by default), each percent-encoded.
 */
export function sftpUrl(
  endpoint: SshEndpoint,
  folders: readonly string[] = ['home', endpoint.user],
): string {
  const ipv6 = endpoint.host.includes(':') && /^[0-9A-Fa-f:.]+$/.test(endpoint.host);
  const host = ipv6 ? `[${endpoint.host}]` : urlPart(endpoint.host);
  const port = endpoint.port === null ? '' : `:${endpoint.port}`;
  const path = folders.map((folder) => `/${urlPart(folder)}`).join('');
  return `sftp://${urlPart(endpoint.user)}@${host}${port}${path}`;
}
