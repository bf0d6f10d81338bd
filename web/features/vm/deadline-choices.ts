import { parseDuration } from '../../../shared/rules/deadlines';

/** The durations the VM dashboard offers for "stop after" and "terminate after". */
export const DEADLINE_CHOICES: readonly { value: string; label: string }[] = [
  { value: '1h', label: '1 hour' },
  { value: '2h', label: '2 hours' },
  { value: '4h', label: '4 hours' },
  { value: '8h', label: '8 hours' },
  { value: '1d', label: '1 day' },
  { value: '7d', label: '1 week' },
];

/** The ISO time a choice (`2h`) stands for from `now`; undefined for none (""). */
export function deadlineFrom(choice: string, now: number): string | undefined {
  const ms = choice ? parseDuration(choice) : null;
  return ms === null ? undefined : new Date(now + ms).toISOString();
}
