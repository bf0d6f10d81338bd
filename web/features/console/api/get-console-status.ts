import type { ConsoleView } from '../../../../shared/contracts/console';
import { apiJson } from '../../../lib/api-client';

const consolePath = (instanceId: number) => `/api/kvm/instances/${instanceId}/console`;

/**
 * Whether the console of an instance can open now: the view, or an error whose message the
 * server wrote (not the caller's: not found; not running; no console key).
 */
export function getConsoleStatus(instanceId: number): Promise<ConsoleView> {
  return apiJson<ConsoleView>('GET', consolePath(instanceId));
}

/** The same path as a WebSocket address on this site, with the terminal's size. */
export function consoleSocketUrl(instanceId: number, cols: number, rows: number): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}${consolePath(instanceId)}?cols=${cols}&rows=${rows}`;
}
