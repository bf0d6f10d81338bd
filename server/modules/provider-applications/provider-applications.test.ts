import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PROVIDER_APPLICATION_MESSAGES as M,
  PROVIDER_APPLICATION_LIMITS,
  PROVIDER_APPLICATION_TEXT,
} from '../../../shared/contracts/provider-application';
import { providerApplications, providers } from '../../db/schema';
import { createProvider } from '../../seed/factories';
import { createTestApp, type TestApp } from '../../test/app';

let t: TestApp;
let admin: { userId: string; cookie: string };
let seq = 0;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signIn({ isAdmin: true, firstName: 'Admin' });
});
afterAll(async () => {
  await t.close();
});

const validApplication = (overrides: Record<string, unknown> = {}) => ({
  companyName: `Apply Compute ${++seq}-${Date.now().toString(36)}`,
  businessType: 'small_business',
  registrationNumber: '',
  taxId: '',
  contactPersonName: 'Ravi Kumar',
  email: 'ravi@example.test',
  phone: '+91 98765 43210',
  website: 'https://apply-compute.example',
  country: 'India',
  state: 'Karnataka',
  city: 'Bengaluru',
  address: '12 MG Road, Ashok Nagar',
  postalCode: '560001',
  timezone: 'Asia/Kolkata',
  facilityType: 'colocation',
  powerCapacity: '10kW',
  coolingType: 'liquid',
  internetSpeed: '1 Gbps',
  uptimeGuarantee: '99.5%',
  totalGpuCount: 8,
  gpuModels: ['RTX 4090', 'A100 80GB'],
  totalVramCapacity: '512GB',
  additionalHardware: '',
  securityMeasures: ['CCTV Monitoring', 'Data Encryption'],
  certifications: [],
  dataRetentionPolicy: 'Guest disks are wiped after every rental.',
  pricingModel: 'hourly',
  minimumRentalDuration: '1 hour',
  paymentTerms: 'Monthly payout',
  cancellationPolicy: 'Cancel any time; billing stops at once.',
  supportHours: '24/7',
  responseTime: '4 hours',
  maintenanceSchedule: 'Sundays 02:00-04:00 IST, announced 48 hours ahead.',
  termsAccepted: true,
  privacyAccepted: true,
  dataProcessingAccepted: true,
  ...overrides,
});

function apply(cookie: string | undefined, payload: unknown) {
  return t.request({
    method: 'POST',
    url: '/api/providers',
    payload: payload as Record<string, unknown>,
    ...(cookie ? { cookie } : {}),
  });
}

const mine = async (cookie: string) =>
  (await t.request({ method: 'GET', url: '/api/provider-applications/mine', cookie })).json()
    .application;

const approve = (id: string, cookie = admin.cookie) =>
  t.request({ method: 'POST', url: `/api/admin/provider-applications/${id}/approve`, cookie });
const reject = (id: string, reason: unknown, cookie = admin.cookie) =>
  t.request({
    method: 'POST',
    url: `/api/admin/provider-applications/${id}/reject`,
    cookie,
    payload: { reason } as Record<string, unknown>,
  });

describe('POST /api/providers', () => {
  it('stores a pending application with the defaults filled in', async () => {
    const { cookie, userId } = await t.signIn();
    const {
      businessType: _b,
      facilityType: _f,
      coolingType: _c,
      pricingModel: _p,
      certifications: _ce,
      ...rest
    } = validApplication();
    const res = await apply(cookie, rest);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      userId,
      status: 'pending',
      rejectionReason: null,
      application: {
        businessType: 'individual',
        facilityType: 'home_office',
        coolingType: 'air',
        pricingModel: 'hourly',
        certifications: [],
      },
    });
    expect((await mine(cookie)).status).toBe('pending');
  });

  it('needs a session', async () => {
    expect((await apply(undefined, validApplication())).statusCode).toBe(401);
    const mineSignedOut = await t.request({
      method: 'GET',
      url: '/api/provider-applications/mine',
    });
    expect(mineSignedOut.statusCode).toBe(401);
  });

  it.each([
    ['companyName', { companyName: 'A' }, M.companyName],
    ['contactPersonName', { contactPersonName: ' ' }, M.contactPersonName],
    ['email', { email: 'not-an-email' }, M.email],
    ['phone', { phone: '12345' }, M.phone],
    ['website', { website: 'apply-compute' }, M.website],
    ['country', { country: 'I' }, M.country],
    ['state', { state: '' }, M.state],
    ['city', { city: 'B' }, M.city],
    ['address', { address: 'MG Road' }, M.address],
    ['postalCode', { postalCode: '56' }, M.postalCode],
    ['timezone', { timezone: '' }, M.timezone],
    ['powerCapacity', { powerCapacity: '' }, M.powerCapacity],
    ['internetSpeed', { internetSpeed: '' }, M.internetSpeed],
    ['uptimeGuarantee', { uptimeGuarantee: '' }, M.uptimeGuarantee],
    ['totalGpuCount', { totalGpuCount: 0 }, M.totalGpuCount],
    ['totalGpuCount', { totalGpuCount: null }, M.totalGpuCount],
    ['gpuModels', { gpuModels: [] }, M.gpuModels],
    ['gpuModels.0', { gpuModels: ['GTX 480'] }, expect.any(String)],
    ['totalVramCapacity', { totalVramCapacity: '' }, M.totalVramCapacity],
    ['securityMeasures', { securityMeasures: [] }, M.securityMeasures],
    ['dataRetentionPolicy', { dataRetentionPolicy: 'wipe' }, M.dataRetentionPolicy],
    ['minimumRentalDuration', { minimumRentalDuration: '' }, M.minimumRentalDuration],
    ['paymentTerms', { paymentTerms: '' }, M.paymentTerms],
    ['cancellationPolicy', { cancellationPolicy: 'any time' }, M.cancellationPolicy],
    ['supportHours', { supportHours: '' }, M.supportHours],
    ['responseTime', { responseTime: '' }, M.responseTime],
    ['maintenanceSchedule', { maintenanceSchedule: 'Sundays' }, M.maintenanceSchedule],
    ['termsAccepted', { termsAccepted: false }, M.termsAccepted],
    ['privacyAccepted', { privacyAccepted: false }, M.privacyAccepted],
    ['dataProcessingAccepted', { dataProcessingAccepted: false }, M.dataProcessingAccepted],
    [
      'additionalHardware',
      { additionalHardware: 'x'.repeat(PROVIDER_APPLICATION_LIMITS.long + 1) },
      `Please keep this under ${PROVIDER_APPLICATION_LIMITS.long} characters.`,
    ],
    [
      'companyName',
      { companyName: 'x'.repeat(PROVIDER_APPLICATION_LIMITS.short + 1) },
      `Please keep this under ${PROVIDER_APPLICATION_LIMITS.short} characters.`,
    ],
    ['businessType', { businessType: 'cartel' }, expect.any(String)],
  ])('refuses a bad %s with 400 and its message', async (field, overrides, message) => {
    const { cookie } = await t.signIn();
    const res = await apply(cookie, validApplication(overrides));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_FAILED');
    expect(res.json().error.details.fields[field]).toEqual([message]);
    expect(await mine(cookie)).toBeNull();
  });

  it('accepts an empty website and optional fields left out', async () => {
    const { cookie } = await t.signIn();
    const {
      registrationNumber: _r,
      taxId: _t,
      additionalHardware: _a,
      ...rest
    } = validApplication({
      website: '',
    });
    expect((await apply(cookie, rest)).statusCode).toBe(201);
  });

  it('allows one open application per user: a second one is 409', async () => {
    const { cookie } = await t.signIn();
    expect((await apply(cookie, validApplication())).statusCode).toBe(201);
    const again = await apply(cookie, validApplication());
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('APPLICATION_OPEN');
  });

  it('refuses a user who already has a provider profile', async () => {
    const { cookie, userId } = await t.signIn();
    await createProvider(t.database.db, { userId });
    const res = await apply(cookie, validApplication());
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('ALREADY_PROVIDER');
  });
});

describe('reviewing applications', () => {
  it('approve creates the provider profile in the same step and mails the applicant', async () => {
    const email = `applicant-${++seq}@example.test`;
    const applicant = await t.signIn({ email });
    const body = validApplication();
    const created = (await apply(applicant.cookie, body)).json();

    const list = await t.request({
      method: 'GET',
      url: '/api/admin/provider-applications',
      cookie: admin.cookie,
    });
    expect(list.statusCode).toBe(200);
    const listed = list.json().applications;
    expect(listed.find((a: { id: string }) => a.id === created.id)).toMatchObject({
      status: 'pending',
      application: { companyName: body.companyName, gpuModels: body.gpuModels },
    });
    // Pending applications come first.
    const firstReviewed = listed.findIndex((a: { status: string }) => a.status !== 'pending');
    const lastPending = listed.map((a: { status: string }) => a.status).lastIndexOf('pending');
    if (firstReviewed !== -1) expect(lastPending).toBeLessThan(firstReviewed);

    const res = await approve(created.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'approved', providerId: expect.any(Number) });

    const [profile] = await t.database.db
      .select()
      .from(providers)
      .where(eq(providers.userId, applicant.userId));
    expect(profile).toMatchObject({
      id: res.json().providerId,
      companyName: body.companyName,
      location: 'Bengaluru, India',
      isVerified: false,
    });
    const own = await t.request({
      method: 'GET',
      url: `/api/providers/user/${applicant.userId}`,
      cookie: applicant.cookie,
    });
    expect(own.statusCode).toBe(200);

    const mail = t.mailer.sent.filter((m) => m.to === email);
    expect(mail).toHaveLength(1);
    expect(mail[0]?.subject).toContain('approved');
    expect((await mine(applicant.cookie)).status).toBe('approved');

    // Reviewed once: approving or rejecting again is 409; applying again too (now a provider).
    expect((await approve(created.id)).statusCode).toBe(409);
    const rejectAfter = await reject(created.id, 'Too late');
    expect(rejectAfter.statusCode).toBe(409);
    expect(rejectAfter.json().error.code).toBe('APPLICATION_REVIEWED');
    expect((await apply(applicant.cookie, validApplication())).json().error.code).toBe(
      'ALREADY_PROVIDER',
    );
  });

  it('reject needs a reason, mails it, and lets the applicant apply again', async () => {
    const email = `rejected-${++seq}@example.test`;
    const applicant = await t.signIn({ email });
    const created = (await apply(applicant.cookie, validApplication())).json();

    const blank = await reject(created.id, '  ');
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error.details.fields.reason).toEqual([
      PROVIDER_APPLICATION_TEXT.rejectReasonRequired,
    ]);
    const long = await reject(created.id, 'x'.repeat(PROVIDER_APPLICATION_LIMITS.reason + 1));
    expect(long.statusCode).toBe(400);

    const reason = 'Please add the colocation contract for your facility.';
    const res = await reject(created.id, reason);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'rejected', rejectionReason: reason });
    const mail = t.mailer.sent.filter((m) => m.to === email);
    expect(mail).toHaveLength(1);
    expect(mail[0]?.text).toContain(reason);
    expect(await mine(applicant.cookie)).toMatchObject({
      status: 'rejected',
      rejectionReason: reason,
    });

    expect((await reject(created.id, reason)).statusCode).toBe(409);
    expect((await approve(created.id)).statusCode).toBe(409);

    const again = await apply(applicant.cookie, validApplication());
    expect(again.statusCode).toBe(201);
    expect((await mine(applicant.cookie)).id).toBe(again.json().id);
  });

  it('an unknown application is 404; a malformed id is 400', async () => {
    expect((await approve('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await approve('nope')).statusCode).toBe(400);
  });

  it('approval of a company name another provider uses is 409 and changes nothing', async () => {
    const taken = `Taken Compute ${++seq}`;
    await createProvider(t.database.db, { companyName: taken });
    const applicant = await t.signIn();
    const created = (
      await apply(applicant.cookie, validApplication({ companyName: taken }))
    ).json();
    const res = await approve(created.id);
    expect(res.statusCode).toBe(409);
    expect((await mine(applicant.cookie)).status).toBe('pending');
  });
});

describe('account deletion', () => {
  it("deletes the user's applications with their contact details", async () => {
    const applicant = await t.signIn();
    expect((await apply(applicant.cookie, validApplication())).statusCode).toBe(201);
    const res = await t.request({
      method: 'DELETE',
      url: `/api/users/${applicant.userId}`,
      cookie: applicant.cookie,
    });
    expect(res.statusCode).toBeLessThan(300);
    const rows = await t.database.db
      .select()
      .from(providerApplications)
      .where(eq(providerApplications.userId, applicant.userId));
    expect(rows).toHaveLength(0);
  });
});

describe('admin routes answer 404 to everyone but admins', () => {
  const ROUTES = [
    ['GET', '/api/admin/provider-applications', undefined],
    ['POST', '/api/admin/provider-applications/:id/approve', undefined],
    ['POST', '/api/admin/provider-applications/:id/reject', { reason: 'No' }],
  ] as const;

  it.each(ROUTES)('%s %s', async (method, path, payload) => {
    const applicant = await t.signIn();
    const created = (await apply(applicant.cookie, validApplication())).json();
    const url = path.replace(':id', created.id);
    for (const cookie of [applicant.cookie, (await t.signIn()).cookie, undefined]) {
      const res = await t.request({
        method,
        url,
        ...(cookie ? { cookie } : {}),
        ...(payload ? { payload } : {}),
      });
      expect(res.statusCode).toBe(404);
      // The same answer as a route that does not exist.
      expect(res.json()).toEqual({
        error: { code: 'NOT_FOUND', message: 'API route not found.', details: {} },
      });
    }
    expect((await mine(applicant.cookie)).status).toBe('pending');
  });
});
