import { describe, expect, it } from 'vitest';
import type {
  DesiredInstance,
  HeartbeatResponse,
  InstanceStatus,
} from '../shared/contracts/agent-protocol';
import { readAnswer, StatusWindow } from './heartbeat-pages';

const desired = (id: string) => ({ id }) as DesiredInstance;
const status = (id: string) => ({ id }) as InstanceStatus;

describe('readAnswer', () => {
  it('asks for each following page at once and takes the pages together', async () => {
    const pages: Record<string, HeartbeatResponse> = {
      first: { instances: [desired('1'), desired('2')], nextCursor: '2' },
      '2': { instances: [desired('3'), desired('4')], nextCursor: '4' },
      '4': { instances: [desired('5')] },
    };
    const asked: (string | undefined)[] = [];
    const read = await readAnswer(async (cursor) => {
      asked.push(cursor);
      return pages[cursor ?? 'first'] as HeartbeatResponse;
    }, []);
    expect(asked).toEqual([undefined, '2', '4']);
    expect(read.instances.map((d) => d.id)).toEqual(['1', '2', '3', '4', '5']);
    expect(read.complete).toBe(true);
    expect(read.answer).toBe(pages.first);
  });

  it('past the most pages it reads, keeps what the last answer listed and no page did', async () => {
    let n = 0;
    const read = await readAnswer(async () => {
      n += 1;
      return { instances: [desired(`p${n}`)], nextCursor: `p${n}` };
    }, [desired('p1'), desired('old')]);
    expect(read.complete).toBe(false);
    expect(read.instances.map((d) => d.id)).toContain('old');
    expect(read.instances.filter((d) => d.id === 'p1')).toHaveLength(1);
  });
});

describe('StatusWindow', () => {
  it('sends every status while they fit, else a window that moves on and wraps', () => {
    const window = new StatusWindow(3);
    expect(window.next([status('a'), status('b')]).map((s) => s.id)).toEqual(['a', 'b']);
    const all = ['a', 'b', 'c', 'd', 'e'].map(status);
    const seen = [1, 2, 3].map(() => window.next(all).map((s) => s.id));
    expect(seen).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e', 'a'],
      ['b', 'c', 'd'],
    ]);
  });
});
