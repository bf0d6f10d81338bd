import { EVENT_END_REASONS } from '../event-names';

export type EndReasonCode = (typeof EVENT_END_REASONS)[number];

/**
 * Why an instance ended or stopped, in words (an end reason code is never shown as itself:
 * "stopped by you", not "(user)"). Lower case, to sit inside a sentence or a memo;
 * `endReasonSentence` capitalises it for a line of its own. end-reasons.test.ts checks that
 * every code of EVENT_END_REASONS has one.
 */
export const END_REASON_WORDS: Record<EndReasonCode, string> = {
  user: 'stopped by you',
  host: 'stopped on its host',
  api: 'stopped through the API',
  expiry: 'booked hours ended',
  provisioning_timeout: 'not ready in time',
  insufficient_credits: 'stopped: your credits ran out',
  host_failed: 'its host failed or went dark',
  demo_cleanup: 'demo account closed',
  deadline_stop: 'stopped at the time you set',
  deadline_terminate: 'terminated at the time you set',
  spend_cap: 'stopped: a spending cap you set was reached',
  idle_stop: 'stopped: it was idle',
  preempted: 'its GPU was taken back',
};

const isCode = (code: string): code is EndReasonCode =>
  (EVENT_END_REASONS as readonly string[]).includes(code);

/** The words for a reason code; a code this build does not know reads "ended", never the code. */
export function endReasonWords(code: string | null | undefined): string | null {
  if (code === null || code === undefined || code === '') return null;
  return isCode(code) ? END_REASON_WORDS[code] : 'ended';
}

/** The words as a line of their own: "Stopped by you". */
export function endReasonSentence(code: string | null | undefined): string | null {
  const words = endReasonWords(code);
  return words === null ? null : words.charAt(0).toUpperCase() + words.slice(1);
}
