import type { HintEventReader } from './types';

/**
 * Every event of an instance placed on a host wakes that host's waiting agent in this process
 * (docs/decisions/017's long poll): whoever changed it — a renter, a deadline, a cap, the
 * minute job, a time-out — the host hears it the same way.
 */
export function hostWorkReader(wake: (hostId: string) => void): HintEventReader {
  return {
    name: 'host-work',
    handle(events) {
      const hosts = new Set<string>();
      for (const e of events) {
        const hostId = e.data.hostId;
        if (e.subjectKind === 'instance' && typeof hostId === 'string') hosts.add(hostId);
      }
      for (const hostId of hosts) wake(hostId);
    },
  };
}

/**
 * What the marketplace's cached pages show changed (an instance took or gave back a unit, a
 * host came or went, a host's verdict changed): this process's read cache is dropped.
 */
export function readCacheReader(invalidate: () => void): HintEventReader {
  return {
    name: 'read-cache',
    handle(events) {
      if (events.some((e) => e.subjectKind === 'instance' || e.subjectKind === 'host')) {
        invalidate();
      }
    },
  };
}
