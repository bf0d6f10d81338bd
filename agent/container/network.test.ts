import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SshPortBook } from '../access/ports';
import { firstSubnetOf, forwardedPortsIn } from './network';

// What `iptables -t nat -S CNI-HOSTPORT-DNAT` printed on this machine after test containers
// were removed without their network's teardown: the rules of ports 42340 and 42400 stayed,
// and the next container published on 42400 answered nothing there (CI, issue 43).
const LEFTOVER_RULES = `-N CNI-HOSTPORT-DNAT
-A CNI-HOSTPORT-DNAT -p tcp -m comment --comment "dnat name: \\"rgt12959-a\\" id: \\"708a\\"" -m multiport --dports 42340 -j CNI-DN-a35ee2bdff5658909631f
-A CNI-HOSTPORT-DNAT -p tcp -m comment --comment "dnat name: \\"rgt12959-a\\" id: \\"7f8a\\"" -m multiport --dports 42400 -j CNI-DN-c1c267c971c97b22a6373
-A CNI-HOSTPORT-DNAT -p tcp -m comment --comment "dnat name: \\"rentgpu-1\\" id: \\"a262\\"" -m multiport --dports 23340,23342:23344 -j CNI-DN-4f40849f31bd61b94a8ba
`;

describe('ports forwarded by CNI portmap', () => {
  it('reads every host port a rule forwards, lists and ranges included', () => {
    expect([...forwardedPortsIn(LEFTOVER_RULES)].sort()).toEqual([
      23340, 23342, 23343, 23344, 42340, 42400,
    ]);
    expect(forwardedPortsIn('')).toEqual(new Set());
  });
});

describe("where the search for a network's /24 starts", () => {
  it('is a place of its own name, the same every time, within the 2048 /24s', () => {
    // Two stores' first networks (two test runs' name prefixes, or a provider's instances):
    // each from a place of its own, where both used to start at 10.89.0.0/24.
    const names = ['rgt1201-a', 'rgt1202-a', 'rentgpu-1', 'rentgpu-2', 'rentgpu-3'];
    const firsts = names.map(firstSubnetOf);
    expect(new Set(firsts).size).toBe(names.length);
    for (const first of firsts) {
      expect(Number.isInteger(first) && first >= 0 && first < 2048).toBe(true);
    }
    expect(names.map(firstSubnetOf)).toEqual(firsts);
  });
});

describe('a container port book with claimed ports', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });

  async function book(claimed: ReadonlySet<number>) {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'ports-'));
    dirs.push(dir);
    // A free range: whatever an ephemeral listener gets, and the ports after it.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = (server.address() as { port: number }).port;
    await new Promise((resolve) => server.close(resolve));
    return {
      base,
      dir,
      ports: new SshPortBook({
        instancesDir: dir,
        listenHost: '127.0.0.1',
        sshPorts: [base, base + 5],
        claimed: async () => new Set([...claimed].map((offset) => base + offset)),
      }),
    };
  }

  it('passes over a port a rule still forwards, though nothing listens on it', async () => {
    const { base, dir, ports } = await book(new Set([0, 1]));
    await mkdir(path.join(dir, 'a'));
    expect(await ports.ensure('a')).toEqual({ sshPort: base + 2 });
  });

  it('keeps an instance its own port on a later boot (its own rule is its own)', async () => {
    const { base, dir, ports } = await book(new Set([0]));
    await mkdir(path.join(dir, 'a'));
    await writeFile(path.join(dir, 'a', 'ports.json'), JSON.stringify({ sshPort: base }));
    expect(await ports.ensure('a')).toEqual({ sshPort: base });
  });
});
