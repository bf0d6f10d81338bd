import { z } from 'zod';
import { IDLE_MINUTES_MESSAGE, IDLE_THRESHOLD_MESSAGE, validIdleMinutes } from '../rules/idle-stop';

/** Idle-stop minutes in a request (shared/rules/idle-stop.ts): 0 (off) or 15 to 10080. */
export const idleMinutes = (field: string) =>
  z.number({ message: `${field} ${IDLE_MINUTES_MESSAGE}` }).refine(validIdleMinutes, {
    message: `${field} ${IDLE_MINUTES_MESSAGE}`,
  });

/** The GPU utilisation under which an instance is idle, in whole percent (1–100). */
export const idleThreshold = (field: string) =>
  z
    .number({ message: `${field} ${IDLE_THRESHOLD_MESSAGE}` })
    .int({ message: `${field} ${IDLE_THRESHOLD_MESSAGE}` })
    .min(1, { message: `${field} ${IDLE_THRESHOLD_MESSAGE}` })
    .max(100, { message: `${field} ${IDLE_THRESHOLD_MESSAGE}` });
