import { readFileSync } from 'node:fs';
import net from 'node:net';

/**
 * The machine's ephemeral ports (Linux: /proc/sys/net/ipv4/ip_local_port_range; the kernel's
 * default elsewhere): the ports an outgoing connection is given.
 */
function ephemeralRange() {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (Number.isInteger(low) && Number.isInteger(high) && low > 0 && high >= low) {
      return { low, high };
    }
  } catch {
    // not Linux: the default below
  }
  return { low: 32768, high: 60999 };
}

/** Whether something could listen on `port` of 127.0.0.1 now (the probe closes at once). */
function canListen(port) {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * A TCP port nothing on 127.0.0.1 listens on now, for a child process to start on, chosen
 * outside the ephemeral range. A port the system picks (listen on 0) is an ephemeral one: between
 * the probe's close and the child's bind, any outgoing connection on the machine may be given it
 * (the test suite's other lane opens many to PostgreSQL), and the child then fails with "Address
 * already in use" (seen with the tests' dropbear, reproduced by holding such a connection). Below
 * the range (from 20,000, where none of the machine's services or the suite's fixed ports are)
 * or above it, only another listener that asks for that very port could take it.
 */
export async function freePort() {
  const { low, high } = ephemeralRange();
  const ranges = [
    [20_000, low - 1],
    [high + 1, 65_535],
  ].filter(([from, to]) => to >= from);
  const size = ranges.reduce((sum, [from, to]) => sum + to - from + 1, 0);
  for (let attempt = 0; attempt < 50 && size > 0; attempt += 1) {
    let pick = Math.floor(Math.random() * size);
    for (const [from, to] of ranges) {
      if (pick <= to - from) {
        if (await canListen(from + pick)) return from + pick;
        break;
      }
      pick -= to - from + 1;
    }
  }
  // No room outside the range, or 50 ports taken: one the system picks.
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}
