// The local services the tests use when they answer (npm test, npm run test:quick).
import net from 'node:net';

/** A local Redis on its usual port takes part (the shared rate limits' tests), as in CI. */
export async function redisAnswers() {
  if (process.env.TEST_REDIS_URL) return true;
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port: 6379 });
    socket.setTimeout(500);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    for (const event of ['error', 'timeout']) {
      socket.once(event, () => {
        socket.destroy();
        resolve(false);
      });
    }
  });
}
