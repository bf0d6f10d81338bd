import { describe, expect, it } from 'vitest';
import {
  computeMinuteMicros,
  minuteChargeMicros,
  minuteIndex,
  oneHourMicros,
  storageMinuteMicros,
} from './metering';

describe('metered pricing', () => {
  it('divides an hourly rate into minutes, rounding up to the micro-dollar', () => {
    expect(computeMinuteMicros(1_200_000n)).toBe(20_000n);
    expect(computeMinuteMicros(1_450_000n)).toBe(24_167n);
  });

  it('charges storage at $0.001 per GB per hour', () => {
    expect(storageMinuteMicros(60)).toBe(1_000n);
    expect(storageMinuteMicros(50)).toBe(834n);
  });

  it('charges compute only while running, storage always', () => {
    expect(minuteChargeMicros(1_200_000n, 60, true)).toEqual({
      computeMicros: 20_000n,
      storageMicros: 1_000n,
    });
    expect(minuteChargeMicros(1_200_000n, 60, false)).toEqual({
      computeMicros: 0n,
      storageMicros: 1_000n,
    });
  });

  it('needs one hour at the running rate to start', () => {
    expect(oneHourMicros(1_200_000n, 60)).toBe(1_260_000n);
  });

  it('numbers minutes since the epoch', () => {
    expect(minuteIndex(new Date(125_000))).toBe(2);
  });
});
