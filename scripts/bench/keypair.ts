/**
 * `BENCH_ONLY=keypair`: what the web console's key pair, made for every instance launched,
 * costs the event loop (issue 43), against node:crypto's own ways of making one:
 * `generateKeyPair` with DER encodings (generated on libuv's pool; the encoding runs back on
 * the loop) and `generateKeyPairSync` with the same. No database.
 */
import { type ED25519KeyPairOptions, generateKeyPair, generateKeyPairSync } from 'node:crypto';
import { generateSshKeyPair } from '../../server/lib/ssh-keypair';
import { procCpuMs } from './cpu';

const DER: ED25519KeyPairOptions<'der', 'der'> = {
  privateKeyEncoding: { type: 'pkcs8', format: 'der' },
  publicKeyEncoding: { type: 'spki', format: 'der' },
};

/** This thread's CPU µs per call of `make`, `count` calls, at most 32 pending at once. */
async function loopMicros(count: number, make: () => unknown): Promise<number> {
  const before = procCpuMs(`/proc/self/task/${process.pid}/stat`);
  for (let done = 0; done < count; done += 32) {
    await Promise.all(Array.from({ length: Math.min(32, count - done) }, make));
  }
  return ((procCpuMs(`/proc/self/task/${process.pid}/stat`) - before) * 1000) / count;
}

export async function benchKeyPair(fmt: (n: number, digits?: number) => string): Promise<void> {
  const count = 20_000;
  const ways: [string, () => unknown][] = [
    ['the console key pair (generateSshKeyPair)', () => generateSshKeyPair('rentgpu-web-console')],
    [
      'generateKeyPair, DER (on the pool)',
      () =>
        new Promise<void>((resolve, reject) =>
          generateKeyPair('ed25519', DER, (error) => (error ? reject(error) : resolve())),
        ),
    ],
    ['generateKeyPairSync, DER', () => generateKeyPairSync('ed25519', DER)],
  ];
  console.log(
    `\nweb console key pair: this thread's CPU a pair (${fmt(count)} pairs each, 2 rounds)`,
  );
  for (let round = 1; round <= 2; round += 1) {
    const figures: string[] = [];
    for (const [name, make] of ways)
      figures.push(`${name} ${fmt(await loopMicros(count, make), 1)} µs`);
    console.log(`  round ${round}: ${figures.join('; ')}`);
  }
}
