import { z } from 'zod';

/**
 * What a launch answers beside the instance (issue 26 part 6): things that do not stop it
 * but that the renter should know before relying on it. NO_SSH_KEY: the account had no SSH
 * key when it launched, so `ssh` cannot sign in (the keys are installed while the instance is
 * set up: commands/place.ts).
 */
export const LAUNCH_WARNING_CODES = ['NO_SSH_KEY'] as const;
export type LaunchWarningCode = (typeof LAUNCH_WARNING_CODES)[number];

export const NO_SSH_KEY_WARNING =
  'Your account has no SSH key, so ssh cannot sign in to this instance. Add one in Settings → SSH Keys before it finishes setting up (it takes the keys you have then), or use the web console.';

export const launchWarning = z.object({
  code: z.enum(LAUNCH_WARNING_CODES),
  message: z.string(),
});
export type LaunchWarning = z.infer<typeof launchWarning>;

export const launchWarnings = z
  .array(launchWarning)
  .describe('Warnings about the launched instance (empty when none), e.g. `NO_SSH_KEY`.');

/** The warnings for a launch by an account holding `sshKeyCount` keys. */
export function sshKeyWarnings(sshKeyCount: number): LaunchWarning[] {
  return sshKeyCount === 0 ? [{ code: 'NO_SSH_KEY', message: NO_SSH_KEY_WARNING }] : [];
}
