import net from 'node:net';

/**
 * With slirp's hostfwd (QEMU) or a published container port a TCP connect succeeds before the
 * SSH server listens, so "SSH is up" means the server's identification string arrived.
 */
export function readSshBanner(host: string, port: number, timeoutMs = 1500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.createConnection({ host, port });
    let data = '';
    const finish = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      data += chunk;
      if (data.length >= 7) finish(data.startsWith('SSH-2.0'));
    });
    socket.on('error', () => finish(false));
    socket.on('close', () => finish(data.startsWith('SSH-2.0')));
  });
}

/** Whether a TCP port can be bound on that address now. */
export function portIsFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}
