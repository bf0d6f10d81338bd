import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  hostKeyOptions,
  type SshEndpoint,
  scpUploadCommand,
  sftpUrl,
  shellLine,
  shellQuote,
  sshArgv,
  sshCommand,
  sshTunnelCommand,
  unsafeEndpointReason,
} from './shell-command';

/**
 * The real check: a POSIX shell reads the line back (`printf` prints each word it got, NUL
 * after each) in an empty folder. The words must come back unchanged, and any command smuggled
 * in (`touch pwned`) would leave a file behind.
 */
function readBack(line: string): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'shell-quote-'));
  let out: string;
  let left: string[];
  try {
    out = execFileSync('/bin/sh', ['-c', `printf '%s\\0' ${line}`], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir },
    });
    left = readdirSync(dir);
  } finally {
    rmSync(dir, { recursive: true });
  }
  expect(left).toEqual([]);
  return out.split('\0').slice(0, -1);
}

const hostile = [
  '',
  ' ',
  'a b',
  ';touch pwned',
  'h.example;id;#',
  '$(touch pwned)',
  '`touch pwned`',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, on purpose.
  '${HOME}',
  "it's",
  "'",
  "''",
  "'\\''",
  '"',
  'a"b\'c',
  '\\',
  'line\nbreak; touch pwned',
  '*',
  '?',
  '[a]',
  '~',
  '~root',
  '-oProxyCommand=touch pwned;#',
  '--',
  '-',
  'a|touch pwned',
  'a&touch pwned&',
  '>pwned',
  '<x',
  '!',
  '#comment',
  'tab\there',
  'ünïcødé ✓ 日本',
  'a=b',
  '%s',
  '\u0001\u001b[2J',
];

describe('shellQuote', () => {
  it('leaves plain words bare, so normal commands look as they always did', () => {
    expect(shellLine(['ssh', '-p', '22022', 'ubuntu@203.0.113.5'])).toBe(
      'ssh -p 22022 ubuntu@203.0.113.5',
    );
    expect(shellQuote('8888:localhost:8888')).toBe('8888:localhost:8888');
    expect(shellQuote('-oFoo=bar')).toBe('-oFoo=bar');
  });

  it('quotes everything else', () => {
    expect(shellQuote('')).toBe("''");
    expect(shellQuote('h.example;id;#')).toBe("'h.example;id;#'");
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote('*')).toBe("'*'");
    expect(shellQuote('~')).toBe("'~'");
  });

  it('gives back each hostile word unchanged through /bin/sh, and runs nothing', () => {
    for (const word of hostile) {
      expect(readBack(shellQuote(word)), JSON.stringify(word)).toEqual([word]);
    }
    expect(readBack(shellLine(hostile))).toEqual(hostile);
  });

  it('gives back any words unchanged through /bin/sh (property)', () => {
    // NUL cannot be in an argument; everything else can.
    const word = fc.string({ unit: 'binary', maxLength: 24 }).map((w) => w.replaceAll('\0', ''));
    const metachar = fc.constantFrom(...';&|<>()$`\\"\' \t\n*?[]#~=%!{}^-');
    const nasty = fc
      .array(fc.oneof(metachar, fc.string({ maxLength: 3 })), { maxLength: 12 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.array(fc.oneof(word, nasty), { minLength: 1, maxLength: 6 }), (words) => {
        expect(readBack(shellLine(words))).toEqual(words);
      }),
      { numRuns: 100 },
    );
  }, 60_000); // a shell per run: slow on a busy machine
});

const normal: SshEndpoint = { user: 'ubuntu', host: '203.0.113.5', port: 22022 };

describe('commands for an endpoint', () => {
  it('keep the familiar look for normal values, with the host key filed under the instance', () => {
    const pin = '-o HostKeyAlias=rentgpu-42 -o CheckHostIP=no';
    expect(sshCommand(normal, 42)).toBe(`ssh -p 22022 ${pin} ubuntu@203.0.113.5`);
    expect(sshCommand({ ...normal, host: 'gpu-box-1.example.net', port: 22011 }, 42)).toBe(
      `ssh -p 22011 ${pin} ubuntu@gpu-box-1.example.net`,
    );
    expect(sshCommand({ ...normal, port: null }, 42)).toBe(`ssh ${pin} ubuntu@203.0.113.5`);
    expect(sshTunnelCommand(normal, 42, 8888)).toBe(
      `ssh -N -L 8888:localhost:8888 -p 22022 ${pin} ubuntu@203.0.113.5`,
    );
    // Another instance on the same host and port is another name for ssh's known_hosts.
    expect(sshCommand(normal, 43)).toContain('HostKeyAlias=rentgpu-43');
    expect(scpUploadCommand(normal, 'data.tar')).toBe('scp -P 22022 data.tar ubuntu@203.0.113.5:');
    expect(sftpUrl(normal)).toBe('sftp://ubuntu@203.0.113.5:22022/home/ubuntu');
    expect(sftpUrl({ ...normal, host: '2001:db8::1', port: null })).toBe(
      'sftp://ubuntu@[2001:db8::1]/home/ubuntu',
    );
    expect(sshArgv(normal, { remote: ['nvidia-smi'] })).toEqual([
      '-l',
      'ubuntu',
      '-p',
      '22022',
      '--',
      '203.0.113.5',
      'nvidia-smi',
    ]);
  });

  it('put a hostile user after -l and a hostile host after --, quoted', () => {
    const pin = '-o HostKeyAlias=rentgpu-7 -o CheckHostIP=no';
    expect(sshCommand({ ...normal, host: 'h.example;id;#', port: 22 }, 7)).toBe(
      `ssh -p 22 ${pin} -l ubuntu -- 'h.example;id;#'`,
    );
    expect(sshCommand({ ...normal, user: '-oProxyCommand=touch /tmp/x;#' }, 7)).toBe(
      `ssh -p 22022 ${pin} -l '-oProxyCommand=touch /tmp/x;#' -- 203.0.113.5`,
    );
    expect(sshCommand({ ...normal, host: '-oProxyCommand=id' }, 7)).toBe(
      `ssh -p 22022 ${pin} -l ubuntu -- -oProxyCommand=id`,
    );
    expect(sshCommand({ ...normal, host: 'evil@h.example' }, 7)).toBe(
      `ssh -p 22022 ${pin} -l ubuntu -- evil@h.example`,
    );
    expect(sftpUrl({ ...normal, user: "a'b", host: 'h.example;id;#' })).toBe(
      'sftp://a%27b@h.example%3Bid%3B%23:22022/home/a%27b',
    );
  });

  /**
   * What ssh would make of the line, as a shell gives it the words: with `--` the host is the
   * word after it and the user the word after `-l`; without, one `user@host` word of plain
   * values. Either way no reported value stands where ssh reads an option.
   */
  function sshReads(words: string[]): { user: string; host: string; options: string[] } {
    expect(words[0]).toBe('ssh');
    // As ssh's getopt reads it: `-l` takes the next word (even `--`) as its value.
    const l = words.indexOf('-l');
    const end = l === -1 ? words.indexOf('--') : words.indexOf('--', l + 2);
    if (end === -1) {
      const last = words.at(-1) ?? '';
      const at = last.lastIndexOf('@');
      expect(last.startsWith('-')).toBe(false);
      return { user: last.slice(0, at), host: last.slice(at + 1), options: words.slice(1, -1) };
    }
    expect(words.length).toBe(end + 2);
    return { user: words[l + 1] ?? '', host: words[end + 1] ?? '', options: words.slice(1, l) };
  }

  it('always reach the reported user and host, never an option (property)', () => {
    const value = fc.oneof(
      fc.constantFrom(...hostile, 'ubuntu', 'gpu-1.example.net', '2001:db8::1', 'a@b'),
      fc.string({ maxLength: 20 }).map((w) => w.replaceAll('\0', '')),
    );
    const port = fc.option(fc.integer({ min: 1, max: 65_535 }), { nil: null });
    fc.assert(
      fc.property(value, value, port, (user, host, p) => {
        const endpoint = { user, host, port: p };
        const portWords = [...(p === null ? [] : ['-p', String(p)]), ...hostKeyOptions(9)];
        const command = sshReads(readBack(sshCommand(endpoint, 9)));
        expect(command).toEqual({ user, host, options: portWords });
        const tunnel = sshReads(readBack(sshTunnelCommand(endpoint, 9, 8888)));
        expect(tunnel).toEqual({
          user,
          host,
          options: ['-N', '-L', '8888:localhost:8888', ...portWords],
        });
        const scp = readBack(scpUploadCommand(endpoint, 'a file'));
        expect(scp.slice(-2)[0]).toBe('a file');
        if (scp.includes('--')) expect(scp).toContain(`User=${user}`);
        expect(sftpUrl(endpoint)).toMatch(/^sftp:\/\/[A-Za-z0-9%._-]*@[A-Za-z0-9%._[\]:-]*\//);
      }),
      { numRuns: 60 },
    );
  }, 60_000);
});

describe('unsafeEndpointReason', () => {
  it('refuses what no program should get even after -l or --', () => {
    expect(unsafeEndpointReason(normal)).toBeNull();
    expect(unsafeEndpointReason({ ...normal, host: 'h.example;id;#' })).toBeNull();
    expect(unsafeEndpointReason({ ...normal, user: '-oProxyCommand=x' })).toMatch(/user starts/);
    expect(unsafeEndpointReason({ ...normal, host: '-x' })).toMatch(/host starts/);
    expect(unsafeEndpointReason({ ...normal, host: 'a b' })).toMatch(/whitespace/);
    expect(unsafeEndpointReason({ ...normal, user: 'a\nb' })).toMatch(/whitespace/);
    expect(unsafeEndpointReason({ ...normal, user: '\u001b[2J' })).toMatch(/control/);
    expect(unsafeEndpointReason({ ...normal, user: '' })).toMatch(/empty/);
  });
});
