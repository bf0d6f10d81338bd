import { consoleClientMessage } from '../../../../shared/contracts/console';

/**
 * The web console's close reasons and its frames: the texts a renter reads when the console
 * closes, and how a socket's bytes become a control message.
 */

/** The close reason when the instance cannot be reached (the log says why). */
export const CONSOLE_UNREACHABLE = 'Could not connect to the instance.';
/** The close reason when the instance refused a shell (the log says why). */
export const CONSOLE_NO_SHELL = 'The instance did not open a shell for the web console.';
/** The close reason when the server could not open the console (its log says why). */
export const CONSOLE_NOT_OPENED = 'The web console could not open. Try again in a moment.';
/** The close reason when the instance does not let the console's key in. */
export const CONSOLE_KEY_REFUSED =
  "The instance did not accept the web console's key (was it removed from authorized_keys?).";

/** The close reason when the guest shows a host key other than the one stored for its run. */
export const HOST_KEY_CHANGED =
  "The instance's SSH host key changed since the first console; not connecting.";

export function toBuffer(data: Buffer | ArrayBuffer | Buffer[]): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

export function parseControl(bytes: Buffer) {
  try {
    const parsed = consoleClientMessage.safeParse(JSON.parse(bytes.toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A close reason is at most 123 bytes of UTF-8 (RFC 6455). */
export function closeReason(text: string): string {
  const reason = text.replace(/\s+/g, ' ').trim();
  if (Buffer.byteLength(reason) <= 123) return reason;
  let cut = reason;
  while (Buffer.byteLength(cut) > 120) cut = cut.slice(0, -1);
  return `${cut}…`;
}
