/**
 * What every process acts on at once when the log gets an event (migration 0043): the id of
 * the `events` signal the event's writer sends at commit. `instance <host id>`: an instance's
 * event on a host (wake that host's waiting agent, drop the cached marketplace pages);
 * `instance` or `host`: drop the pages. Anything else (no id, a test's marker) asks nothing.
 */
export interface EventHint {
  dropReads: boolean;
  /** The host whose waiting agent has work (docs/decisions/017's long poll). */
  wakeHost: string | null;
}

export function eventHintOf(id: string | undefined): EventHint | null {
  if (id === 'instance' || id === 'host') return { dropReads: true, wakeHost: null };
  if (id?.startsWith('instance ')) {
    const host = id.slice('instance '.length);
    return { dropReads: true, wakeHost: host === '' ? null : host };
  }
  return null;
}
