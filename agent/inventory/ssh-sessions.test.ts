import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { InstanceStatus } from '../../shared/contracts/agent-protocol';
import { establishedConnections, SshSessionWatch } from './ssh-sessions';

// /proc/net/tcp as the kernel writes it: a listener on :22001 (0A), two connections accepted
// on it (01), one closing (06, TIME_WAIT), and an outgoing connection *to* port 22001 (its
// local port is the client's), which is not a session on the host's side.
const TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000:55F1 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 41001 1 0000000000000000 100 0 0 10 0
   1: 0200000A:55F1 0100A8C0:D2F0 01 00000000:00000000 02:0009A3B1 00000000     0        0 41002 2 0000000000000000 20 4 30 10 -1
   2: 0200000A:55F1 0200A8C0:C350 01 00000000:00000000 02:0009A3B1 00000000     0        0 41003 2 0000000000000000 20 4 30 10 -1
   3: 0200000A:55F1 0300A8C0:C351 06 00000000:00000000 03:00000F2B 00000000     0        0 0 3 0000000000000000
   4: 0100007F:D2F2 0100007F:55F1 01 00000000:00000000 02:0009A3B1 00000000  1000        0 41004 2 0000000000000000 20 4 30 10 -1
`;
// /proc/net/tcp6: one IPv6 connection on :22002.
const TCP6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000001000000:55F2 00000000000000000000000001000000:B5A8 01 00000000:00000000 02:000A1B2C 00000000     0        0 52001 2 0000000000000000 20 4 30 10 -1
`;

describe('establishedConnections', () => {
  it('reads the established sockets of a TCP table with their local port and inode', () => {
    expect(establishedConnections(TCP)).toEqual([
      { localPort: 22001, inode: '41002' },
      { localPort: 22001, inode: '41003' },
      { localPort: 54002, inode: '41004' },
    ]);
    expect(establishedConnections(TCP6)).toEqual([{ localPort: 22002, inode: '52001' }]);
    expect(establishedConnections('')).toEqual([]);
    expect(establishedConnections('header\nnot a table line\n')).toEqual([]);
  });
});

describe('SshSessionWatch', () => {
  const tables = { '/proc/net/tcp': TCP, '/proc/net/tcp6': TCP6 } as Record<string, string>;
  const read = async (path: string) => tables[path] ?? '';

  it('counts a connection on a watched port once it has stayed open the minimum age', async () => {
    let now = 0;
    const watch = new SshSessionWatch({ minAgeMs: 120_000, now: () => now, read });
    // First seen: too young to be a session (it may not have logged in).
    expect(await watch.sample([22001, 22002, 22003])).toEqual(new Map());
    now = 119_999;
    expect(await watch.sample([22001, 22002, 22003])).toEqual(new Map());
    now = 120_000;
    expect(await watch.sample([22001, 22002, 22003])).toEqual(
      new Map([
        [22001, 2],
        [22002, 1],
      ]),
    );
  });

  it('starts a connection that closed and another that opened from zero', async () => {
    let now = 0;
    const watch = new SshSessionWatch({ minAgeMs: 60_000, now: () => now, read });
    await watch.sample([22001]);
    now = 60_000;
    expect((await watch.sample([22001])).get(22001)).toBe(2);
    // 41003 closes and a new connection (41009) arrives on the same port.
    const before = tables['/proc/net/tcp'];
    tables['/proc/net/tcp'] = TCP.replace(' 41003 ', ' 41009 ');
    try {
      expect((await watch.sample([22001])).get(22001)).toBe(1);
      now = 120_000;
      expect((await watch.sample([22001])).get(22001)).toBe(2);
    } finally {
      tables['/proc/net/tcp'] = before ?? '';
    }
  });

  it('annotates the running instances a heartbeat carries, sampling every running one', async () => {
    let now = 0;
    const watch = new SshSessionWatch({ minAgeMs: 1000, now: () => now, read });
    const status = (id: string, state: InstanceStatus['state'], port: number) => ({
      id,
      generation: 1,
      state,
      ssh: { host: '203.0.113.9', port, user: 'ubuntu' },
      vnc: null,
      error: null,
    });
    const all = [status('a', 'running', 22001), status('b', 'running', 22002)];
    await watch.annotate(all, [all[0] as InstanceStatus]);
    now = 1000;
    // Page two of the heartbeat carries b: its connection's age counted from the first sample.
    const stopped = status('c', 'stopped', 22003);
    expect(await watch.annotate([...all, stopped], [all[1] as InstanceStatus, stopped])).toEqual([
      { ...all[1], sshSessions: 1 },
      stopped,
    ]);
  });

  it('answers nothing without watched ports, and a missing table is read as empty', async () => {
    const watch = new SshSessionWatch({ minAgeMs: 0, tables: ['/nonexistent/tcp'] });
    expect(await watch.sample([])).toEqual(new Map());
    expect(await watch.sample([22001])).toEqual(new Map());
  });
});

describe('SshSessionWatch on this machine’s kernel', () => {
  const closers: (() => void)[] = [];
  afterEach(() => {
    for (const close of closers.splice(0)) close();
  });

  it('sees a real TCP connection accepted on a port, and stops seeing it once closed', async () => {
    const accepted: net.Socket[] = [];
    const server = net.createServer((s) => accepted.push(s));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => server.close());
    const port = (server.address() as net.AddressInfo).port;
    const watch = new SshSessionWatch({ minAgeMs: 0 });
    expect((await watch.sample([port])).get(port)).toBeUndefined();

    const client = net.connect(port, '127.0.0.1');
    closers.push(() => client.destroy());
    await new Promise<void>((resolve) => client.once('connect', () => resolve()));
    await expect.poll(() => accepted.length).toBe(1);
    // Only the accepted side counts: the client's socket has another local port.
    expect((await watch.sample([port])).get(port)).toBe(1);

    client.destroy();
    for (const s of accepted) s.destroy();
    await expect.poll(async () => (await watch.sample([port])).get(port)).toBeUndefined();
  });
});
