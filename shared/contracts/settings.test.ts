import { describe, expect, it } from 'vitest';
import { createPaypalOrderBody, parseCustomAmount } from './payments';
import { DEFAULT_SETTINGS, resolveSettings, userSettings } from './settings';

describe('resolveSettings', () => {
  it('gives the section 9 defaults for nothing stored', () => {
    expect(resolveSettings({})).toEqual(DEFAULT_SETTINGS);
    expect(resolveSettings(null)).toEqual(DEFAULT_SETTINGS);
    expect(userSettings.parse(DEFAULT_SETTINGS)).toEqual(DEFAULT_SETTINGS);
  });

  it('keeps valid stored values and replaces invalid ones one by one', () => {
    const resolved = resolveSettings({
      notifications: { push: true, sms: 'yes' },
      preferences: { currency: 'JPY', language: 'tlh' },
    });
    expect(resolved.notifications).toMatchObject({ push: true, sms: false, email: true });
    expect(resolved.preferences).toMatchObject({ currency: 'JPY', language: 'en' });
  });
});

describe('credit purchase input', () => {
  it('parses custom amounts of 1 to 1000 with whole cents', () => {
    expect(parseCustomAmount('1')).toBe('1.00');
    expect(parseCustomAmount(1000)).toBe('1000.00');
    expect(parseCustomAmount('12.5')).toBe('12.50');
    for (const bad of ['0.99', '1000.01', '12.345', '-5', '1e3', '', 'abc']) {
      expect(parseCustomAmount(bad)).toBeNull();
    }
  });

  it("checks a package's amount against the package", () => {
    expect(createPaypalOrderBody.safeParse({ packageId: 'pro', amount: 100 }).success).toBe(true);
    expect(createPaypalOrderBody.safeParse({ packageId: 'pro', amount: 99 }).success).toBe(false);
    expect(createPaypalOrderBody.safeParse({ packageId: 'pro' }).success).toBe(true);
  });
});
