import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { run } from '../main';
import { captureIo } from '../test/harness';
import { deadlineBody, deadlineWords, durationArg } from './deadlines';

/** An in-process `rentgpu` against `apiUrl` (nothing listens at the default). */
async function rentgpu(args: string[], apiUrl = 'http://api.test') {
  const { io, stdout, stderr } = captureIo({ apiUrl, configFile: '/nonexistent/config.json' });
  const code = await run(args, io);
  const out = stdout();
  const err = stderr();
  const brace = err.indexOf('{');
  return { code, out, err, body: brace >= 0 ? JSON.parse(err.slice(brace)) : undefined };
}

/** An in-process `rentgpu` whose calls are only explained (--explain: nothing is sent). */
const explain = (args: string[]) => rentgpu(['--explain', ...args]);

const NOW = new Date('2030-01-01T00:00:00.000Z');

describe('the deadline flags', () => {
  it('read 2h, 1d, 90m, 30s and 1h30m as durations', () => {
    const ms = durationArg('--stop-after');
    expect(ms('2h')).toBe(2 * 3_600_000);
    expect(ms('1d')).toBe(86_400_000);
    expect(ms('90m')).toBe(90 * 60_000);
    expect(ms('30s')).toBe(30_000);
    expect(ms('1h30m')).toBe(90 * 60_000);
    expect(ms(' 2H ')).toBe(2 * 3_600_000);
  });

  it('refuse what is not a duration, naming the flag', () => {
    for (const bad of ['', '2', 'h', '2w', '-1h', '0m', '1.5h', 'two hours']) {
      expect(() => durationArg('--terminate-after')(bad), bad).toThrow(
        '--terminate-after must be a duration such as 90m, 2h or 1d',
      );
    }
  });

  it('become times from now in the body, null to clear', () => {
    expect(deadlineBody({ stopAfter: 2 * 3_600_000, terminateAfter: 86_400_000 }, NOW)).toEqual({
      stopAt: '2030-01-01T02:00:00.000Z',
      terminateAt: '2030-01-02T00:00:00.000Z',
    });
    expect(deadlineBody({ clearStop: true, terminateAfter: 90 * 60_000 }, NOW)).toEqual({
      stopAt: null,
      terminateAt: '2030-01-01T01:30:00.000Z',
    });
    expect(deadlineBody({}, NOW)).toEqual({});
    expect(() => deadlineBody({ stopAfter: 60_000, clearStop: true }, NOW)).toThrow(
      'Give --stop-after or --clear-stop, not both.',
    );
  });

  it('refuse a terminate before the stop; the same time is fine', () => {
    expect(() =>
      deadlineBody({ stopAfter: 2 * 3_600_000, terminateAfter: 3_600_000 }, NOW),
    ).toThrow(
      '--terminate-after must not be shorter than --stop-after: the instance would be terminated before it stops.',
    );
    expect(deadlineBody({ stopAfter: 3_600_000, terminateAfter: 3_600_000 }, NOW)).toEqual({
      stopAt: '2030-01-01T01:00:00.000Z',
      terminateAt: '2030-01-01T01:00:00.000Z',
    });
  });

  it('are read back in words', () => {
    expect(deadlineWords({ stopAt: '2030-01-01T02:00:00.000Z', terminateAt: null })).toBe(
      'stops at 2030-01-01T02:00:00.000Z.',
    );
    expect(deadlineWords({ stopAt: null, terminateAt: null })).toBe('no stop or terminate time.');
  });
});

describe('rentgpu with deadlines (--explain)', () => {
  it('instances create --stop-after 2h --terminate-after 1d sends both times', async () => {
    const r = await explain([
      'instances',
      'create',
      '7',
      '--stop-after',
      '2h',
      '--terminate-after',
      '1d',
    ]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain('POST http://api.test/api/v1/instances');
    expect(r.body.gpuListingId).toBe(7);
    // Both from the same moment: a day less two hours apart.
    expect(Date.parse(r.body.terminateAt) - Date.parse(r.body.stopAt)).toBe(22 * 3_600_000);
  });

  it('instances deadline sets and clears with PATCH; without a flag or with a bad one it exits 2', async () => {
    const set = await explain([
      'instances',
      'deadline',
      '7',
      '--stop-after',
      '90m',
      '--clear-terminate',
    ]);
    expect(set.code, set.err).toBe(0);
    expect(set.err).toContain('PATCH http://api.test/api/v1/instances/7');
    expect(set.body.terminateAt).toBeNull();
    expect(typeof set.body.stopAt).toBe('string');
    expect((await explain(['instances', 'deadline', '7'])).code).toBe(2);
    const bad = await explain(['instances', 'create', '7', '--stop-after', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--stop-after must be a duration such as 90m, 2h or 1d');
  });
});

describe('rentgpu with deadlines out of order', () => {
  it('instances create and deadline refuse --terminate-after shorter than --stop-after (exit 2), sending nothing', async () => {
    for (const command of [
      ['instances', 'create', '7'],
      ['instances', 'deadline', '7'],
    ]) {
      const r = await explain([...command, '--stop-after', '2h', '--terminate-after', '1h']);
      expect(r.code).toBe(2);
      expect(r.err).toBe(
        'rentgpu: --terminate-after must not be shorter than --stop-after: the instance would be terminated before it stops.\n',
      );
      expect(r.body).toBeUndefined();
    }
  });

  it("shows the server's 400 when the terminate comes before a stop already set", async () => {
    // A stub API that holds a stop time, and answers as the server does (commands/deadlines.ts).
    const stopAt = '2030-01-01T02:00:00.000Z';
    const server = createServer((req, res) => {
      res.statusCode = 400;
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          error: {
            code: 'VALIDATION_FAILED',
            message: `terminateAt: terminateAt must not be before stopAt (${stopAt}, already set)`,
            details: {
              fields: {
                terminateAt: [`terminateAt must not be before stopAt (${stopAt}, already set)`],
              },
            },
          },
        }),
      );
      req.resume();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const r = await rentgpu(['instances', 'deadline', '7', '--terminate-after', '1h'], url);
      expect(r.code).toBe(1);
      expect(r.err).toContain('(VALIDATION_FAILED, HTTP 400)');
      expect(r.err).toContain(
        `  terminateAt: terminateAt must not be before stopAt (${stopAt}, already set)`,
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('rentgpu with idle stop (--explain)', () => {
  it('instances create --idle-stop 2h --idle-threshold 10 sends minutes and threshold', async () => {
    const r = await explain([
      'instances',
      'create',
      '7',
      '--idle-stop',
      '2h',
      '--idle-threshold',
      '10',
    ]);
    expect(r.code, r.err).toBe(0);
    expect(r.body).toMatchObject({
      gpuListingId: 7,
      idleStopMinutes: 120,
      idleThresholdPercent: 10,
    });
  });

  it('instances deadline --idle-stop off turns it off; a duration not in whole minutes exits 2', async () => {
    const off = await explain(['instances', 'deadline', '7', '--idle-stop', 'off']);
    expect(off.code, off.err).toBe(0);
    expect(off.err).toContain('PATCH http://api.test/api/v1/instances/7');
    expect(off.body).toEqual({ idleStopMinutes: 0 });
    const bad = await explain(['instances', 'deadline', '7', '--idle-stop', '90s']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--idle-stop must be off, or whole minutes');
  });

  it('is read back in words where on', () => {
    expect(
      deadlineWords({
        stopAt: null,
        terminateAt: null,
        idleStopMinutes: 60,
        idleThresholdPercent: 5,
      }),
    ).toBe(
      'no stop or terminate time. Idle stop after 1 h under 5% GPU with no SSH or web console session.',
    );
  });
});
