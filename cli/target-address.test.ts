import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicInstance } from '../shared/contracts/public-api';
import { run } from './main';
import { type Resolve, sshTargetRefusal } from './target-address';
import { captureIo, type StubApi, startStubApi } from './test/harness';

/** A resolver that answers `addresses` for every name. */
const resolveTo =
  (...addresses: string[]): Resolve =>
  async () =>
    addresses.map((address) => ({ address }));

describe('sshTargetRefusal: where the CLI runs ssh', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1 is a loopback address (the machine itself)'],
    ['::ffff:127.0.0.1', '::ffff:127.0.0.1 is a loopback address (the machine itself)'],
    ['10.0.0.1', '10.0.0.1 is a private network address'],
    ['169.254.169.254', "169.254.169.254 is a cloud metadata service's address"],
    ['localhost', 'localhost is a loopback address (the machine itself)'],
    ['metadata.google.internal', "metadata.google.internal is a cloud metadata service's address"],
  ])('refuses %s', async (host, words) => {
    expect(await sshTargetRefusal(host, { resolve: resolveTo('203.0.113.7') })).toBe(words);
  });

  it('refuses a name that resolves inside, and takes one that resolves outside or not at all', async () => {
    expect(await sshTargetRefusal('gpu.example.com', { resolve: resolveTo('127.0.0.1') })).toBe(
      'gpu.example.com resolves to 127.0.0.1, a loopback address (the machine itself)',
    );
    expect(
      await sshTargetRefusal('gpu.example.com', { resolve: resolveTo('203.0.113.7') }),
    ).toBeNull();
    const nowhere: Resolve = async () => {
      throw new Error('ENOTFOUND');
    };
    expect(await sshTargetRefusal('gpu.example.com', { resolve: nowhere })).toBeNull();
  });

  it('lets private addresses through with ALLOW_PRIVATE_HOST_ADDRESSES, never a metadata service', async () => {
    const lab = { allowPrivate: true, resolve: resolveTo('192.168.1.5') };
    expect(await sshTargetRefusal('127.0.0.1', lab)).toBeNull();
    expect(await sshTargetRefusal('box.lan', lab)).toBeNull();
    expect(await sshTargetRefusal('169.254.169.254', lab)).toMatch(/metadata/);
  });
});

describe('rentgpu instances ssh', () => {
  let api: StubApi;
  let sshHost = '127.0.0.1';
  beforeAll(async () => {
    api = await startStubApi(() => {
      const instance: Partial<PublicInstance> = {
        id: 12,
        status: 'running',
        sshHost,
        sshPort: 22022,
        sshUsername: 'ubuntu',
        sshHostKey: null,
        actions: ['stop', 'terminate'],
      };
      return { json: { instance, warnings: [] } };
    });
  });
  afterAll(() => api.close());

  async function ssh(args: string[], allowPrivateHostAddresses = false) {
    const ran: string[][] = [];
    const { io, stdout, stderr } = captureIo(
      {
        apiUrl: api.url,
        configFile: path.join(tmpdir(), 'rentgpu-cli-target', 'config.json'),
        allowPrivateHostAddresses,
      },
      {
        exec: async (command, execArgs) => {
          ran.push([command, ...execArgs]);
          return 0;
        },
      },
    );
    const code = await run(['instances', 'ssh', '12', ...args], io);
    return { code, stdout: stdout(), stderr: stderr(), ran };
  }

  it('refuses a loopback or metadata address before anything is run or printed', async () => {
    for (const host of ['127.0.0.1', '169.254.169.254']) {
      sshHost = host;
      for (const args of [[], ['--print']]) {
        const res = await ssh(args);
        expect(res.code).toBe(1);
        expect(res.stderr).toContain(
          `Instance 12 has an SSH address renters may not be sent to, so ssh was not run: ${host} is`,
        );
        expect(res.ran).toEqual([]);
        expect(res.stdout).toBe('');
      }
    }
  });

  it('runs ssh to a public address, and to loopback with ALLOW_PRIVATE_HOST_ADDRESSES', async () => {
    sshHost = '203.0.113.7';
    expect((await ssh([])).ran).toHaveLength(1);
    sshHost = '127.0.0.1';
    const lab = await ssh([], true);
    expect(lab.code, lab.stderr).toBe(0);
    expect(lab.ran[0]).toContain('127.0.0.1');
  });
});
