/**
 * What a request allocates on the server's thread (`BENCH_ALLOC=1 npm run bench`, part
 * `shapes`): V8's sampling heap profiler over one shape's load, counting the objects the
 * garbage collector has already freed as well (a request's objects mostly die young), divided
 * by the requests answered, with the functions that allocated most. Young-generation
 * allocation is what makes the scavenger run, and at 32 connections a request's objects live
 * across a database round trip: the more a request allocates, the more of them are promoted and
 * the more often the old generation is collected too.
 */
import { Session } from 'node:inspector/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: ProfileNode[];
}

interface SamplingProfile {
  head: ProfileNode;
  samples: { size: number; nodeId: number }[];
}

/** Starts sampling this thread's allocations; `stop` gives a line per allocator. */
export async function sampleAllocations(): Promise<{
  stop: (requests: number) => Promise<string[]>;
}> {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  // Node 20's protocol types lack the last two; V8 11 takes them.
  const sampling: Record<string, number | boolean> = {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  };
  await session.post('HeapProfiler.startSampling', sampling);
  return {
    async stop(requests) {
      const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as {
        profile: SamplingProfile;
      };
      session.disconnect();
      const frameOf = new Map<number, string>();
      const walk = (node: ProfileNode) => {
        const { functionName, url, lineNumber } = node.callFrame;
        const file = url.split('/').pop() || '(native)';
        frameOf.set(node.id, `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`);
        for (const child of node.children ?? []) walk(child);
      };
      walk(profile.head);
      let total = 0;
      const bySelf = new Map<string, number>();
      for (const { size, nodeId } of profile.samples) {
        total += size;
        const frame = frameOf.get(nodeId) ?? '(unknown)';
        bySelf.set(frame, (bySelf.get(frame) ?? 0) + size);
      }
      const kb = (bytes: number) => (bytes / Math.max(requests, 1) / 1024).toFixed(1);
      const top = [...bySelf].sort((a, b) => b[1] - a[1]).slice(0, 5);
      return [
        `allocated ${kb(total)} KiB a request on the server's thread (${requests} requests), most by:`,
        ...top.map(([frame, bytes]) => `  ${kb(bytes).padStart(6)} KiB  ${frame}`),
      ];
    },
  };
}
