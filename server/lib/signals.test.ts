import { describe, expect, it, vi } from 'vitest';
import {
  createLocalSignals,
  decodeSignal,
  encodeSignal,
  SIGNAL_CHANNEL,
  type SignalKind,
} from './signals';
import { createPostgresSignals } from './signals-postgres';

const quietLog = () => ({ warn: vi.fn(), error: vi.fn() });

describe('the local signal bus (the embedded database)', () => {
  it("runs the kind's handlers before publish returns, and only that kind's", () => {
    const signals = createLocalSignals();
    const heard: string[] = [];
    signals.on('api-key', (id) => heard.push(`key ${id}`));
    const stop = signals.on('read-cache', (id) => heard.push(`read ${id}`));
    void signals.publish('api-key', 'h1');
    void signals.publish('read-cache');
    expect(heard).toEqual(['key h1', 'read undefined']);
    stop();
    void signals.publish('read-cache');
    expect(heard).toHaveLength(2);
  });

  it('sends what a transaction raised only after it commits', async () => {
    const signals = createLocalSignals();
    const heard: (string | undefined)[] = [];
    signals.on('api-key', (id) => heard.push(id));
    const result = await signals.afterCommit(async (raise) => {
      raise('api-key', 'k1');
      raise('api-key', 'k1');
      raise('api-key', 'k2');
      expect(heard).toEqual([]);
      return 'committed';
    });
    expect(result).toBe('committed');
    expect(heard).toEqual(['k1', 'k2']);
  });

  it('sends nothing for a transaction that rolls back', async () => {
    const signals = createLocalSignals();
    const heard: (string | undefined)[] = [];
    signals.on('api-key', (id) => heard.push(id));
    await expect(
      signals.afterCommit(async (raise) => {
        raise('api-key', 'k1');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(heard).toEqual([]);
  });

  it('keeps telling the other handlers when one throws', () => {
    const log = quietLog();
    const signals = createLocalSignals(log);
    const heard: string[] = [];
    signals.on('read-cache', () => {
      throw new Error('broken handler');
    });
    signals.on('read-cache', () => heard.push('second'));
    void signals.publish('read-cache');
    expect(heard).toEqual(['second']);
    expect(log.error).toHaveBeenCalledOnce();
  });
});

describe('signal payloads', () => {
  it('round-trip as small JSON', () => {
    const payload = encodeSignal('api-key', '6f1c1d1e-1111-4222-8333-944445555666', 'abc');
    expect(JSON.parse(payload)).toEqual({
      kind: 'api-key',
      id: '6f1c1d1e-1111-4222-8333-944445555666',
      from: 'abc',
    });
    expect(decodeSignal(payload)).toEqual({
      kind: 'api-key',
      id: '6f1c1d1e-1111-4222-8333-944445555666',
      from: 'abc',
    });
    expect(decodeSignal(encodeSignal('read-cache', undefined, 'abc'))).toEqual({
      kind: 'read-cache',
      id: undefined,
      from: 'abc',
    });
  });

  it('send an over-long id as the whole kind, far under the 8,000-byte NOTIFY limit', () => {
    const payload = encodeSignal('api-keys-of-user', 'x'.repeat(10_000), 'abc');
    expect(Buffer.byteLength(payload)).toBeLessThan(8000);
    expect(decodeSignal(payload)).toEqual({ kind: 'api-keys-of-user', id: undefined, from: 'abc' });
  });

  it('ignore anything else on the channel', () => {
    for (const other of [
      'not json',
      '42',
      'null',
      '{"kind":"drop-tables","from":"a"}',
      '{"kind":"read-cache"}',
      '{"kind":"api-key","id":7,"from":"a"}',
    ]) {
      expect(decodeSignal(other)).toBeNull();
    }
  });
});

describe('the PostgreSQL bus, sending', () => {
  /** A bus whose NOTIFY statements are recorded; each answers when the test says. */
  function recordingBus() {
    const sent: string[][] = [];
    const answers: (() => void)[] = [];
    const signals = createPostgresSignals({
      url: 'postgres://unused',
      log: quietLog(),
      send: (payloads) => {
        sent.push(payloads.map((p) => JSON.parse(p).kind + (JSON.parse(p).id ?? '')));
        return new Promise<void>((resolve) => answers.push(resolve));
      },
    });
    return { signals, sent, answers };
  }

  it('tells this process at once and sends one statement per turn, deduplicated', async () => {
    const { signals, sent, answers } = recordingBus();
    const heard: string[] = [];
    signals.on('api-key', (id) => heard.push(String(id)));
    const first = signals.publish('api-key', 'h1');
    void signals.publish('read-cache');
    void signals.publish('read-cache');
    expect(heard).toEqual(['h1']);
    expect(sent).toEqual([]);
    await Promise.resolve();
    expect(sent).toEqual([['api-keyh1', 'read-cache']]);
    let resolved = false;
    void first.then(() => {
      resolved = true;
    });
    await Promise.resolve();
    expect(resolved).toBe(false);
    answers[0]?.();
    await first;
    expect(resolved).toBe(true);
  });

  it('gathers what is published while a statement is in flight into the next one', async () => {
    const { signals, sent, answers } = recordingBus();
    void signals.publish('api-key', 'k1');
    await Promise.resolve();
    const later = [
      signals.publish('api-key', 'k2'),
      signals.publish('api-key', 'k3'),
      signals.publish('api-key', 'k2'),
    ];
    await Promise.resolve();
    expect(sent).toEqual([['api-keyk1']]);
    answers[0]?.();
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toEqual(['api-keyk2', 'api-keyk3']);
    answers[1]?.();
    await Promise.all(later);
  });

  it('resolves a publish whose statement failed (others hear it late), and logs it', async () => {
    const log = quietLog();
    const signals = createPostgresSignals({
      url: 'postgres://unused',
      log,
      send: () => Promise.reject(new Error('connection refused')),
    });
    await signals.publish('read-cache');
    expect(log.warn).toHaveBeenCalledOnce();
  });

  it('sends what was published before close, and nothing after', async () => {
    const sent: string[][] = [];
    const signals = createPostgresSignals({
      url: 'postgres://unused',
      send: async (payloads) => {
        sent.push(payloads);
      },
    });
    const heard: SignalKind[] = [];
    signals.on('read-cache', () => heard.push('read-cache'));
    void signals.publish('read-cache');
    await signals.close();
    expect(sent).toHaveLength(1);
    await signals.publish('read-cache');
    expect(sent).toHaveLength(1);
    expect(heard).toHaveLength(2);
    expect(signals.listening).toBe(false);
    expect(SIGNAL_CHANNEL).toBe('rentgpu_signals');
  });
});
