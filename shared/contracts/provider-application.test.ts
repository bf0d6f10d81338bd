import { describe, expect, it } from 'vitest';
import {
  PROVIDER_APPLICATION_MESSAGES as M,
  PROVIDER_APPLICATION_DEFAULTS,
  providerApplicationBody,
} from './provider-application';

describe('provider application contract', () => {
  it('the untouched form fails with the message of every required field, once each', () => {
    const result = providerApplicationBody.safeParse(PROVIDER_APPLICATION_DEFAULTS);
    expect(result.success).toBe(false);
    const byField = new Map<string, string[]>();
    for (const issue of result.error?.issues ?? []) {
      const key = String(issue.path[0]);
      byField.set(key, [...(byField.get(key) ?? []), issue.message]);
    }
    // timezone defaults to UTC and the GPU count to 1; optional fields and choices pass.
    const { timezone: _tz, totalGpuCount: _n, website: _w, ...required } = M;
    expect(Object.fromEntries(byField)).toEqual(
      Object.fromEntries(Object.entries(required).map(([field, message]) => [field, [message]])),
    );
  });

  it('keeps the spec defaults', () => {
    expect(PROVIDER_APPLICATION_DEFAULTS).toMatchObject({
      businessType: 'individual',
      facilityType: 'home_office',
      coolingType: 'air',
      pricingModel: 'hourly',
      gpuModels: [],
      securityMeasures: [],
      certifications: [],
      termsAccepted: false,
      privacyAccepted: false,
      dataProcessingAccepted: false,
    });
  });
});
