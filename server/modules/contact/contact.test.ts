import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactMessages } from '../../db/schema';
import { clientAddresses } from '../../test/addresses';
import { createTestApp, type TestApp } from '../../test/app';
import { withTestApp } from '../../test/suite';
import { CONTACT_LIMITS } from './service';

let t: TestApp;
const nextIp = clientAddresses(2);

const valid = (overrides: Record<string, unknown> = {}) => ({
  name: 'Priya Sharma',
  email: 'priya@example.test',
  subject: 'Question about A100 availability',
  message: 'Do you have 8x A100 nodes available in India next week?',
  category: 'sales',
  ...overrides,
});

withTestApp({}, (app) => {
  t = app;
});

function send(payload: unknown, extra: { ip?: string; cookie?: string; app?: TestApp } = {}) {
  return (extra.app ?? t).request({
    method: 'POST',
    url: '/api/contact',
    payload: payload as Record<string, unknown>,
    remoteAddress: extra.ip ?? nextIp(),
    ...(extra.cookie ? { cookie: extra.cookie } : {}),
  });
}

async function stored(id: string, app: TestApp = t) {
  const rows = await app.database.db
    .select()
    .from(contactMessages)
    .where(eq(contactMessages.id, id));
  return rows[0];
}

describe('POST /api/contact', () => {
  it('stores the message with the sender address and answers 201', async () => {
    const ip = nextIp();
    const res = await send(valid(), { ip });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({ id: expect.any(String), message: 'Message Sent Successfully' });
    expect(await stored(body.id)).toMatchObject({
      name: 'Priya Sharma',
      email: 'priya@example.test',
      category: 'sales',
      userId: null,
      ip,
      emailedAt: null,
    });
    // Without SMTP_URL nothing is mailed: the message waits in the database for an admin.
    expect(t.mailer.sent.filter((m) => m.to === 'support@rentgpu.dev')).toHaveLength(0);
  });

  it('links the message to the signed-in user and defaults the category to general', async () => {
    const { cookie, userId } = await t.signIn();
    const { category: _omit, ...withoutCategory } = valid();
    const res = await send(withoutCategory, { cookie });
    expect(res.statusCode).toBe(201);
    expect(await stored(res.json().id)).toMatchObject({ userId, category: 'general' });
  });

  it.each([
    ['name', { name: '   ' }, 'Please enter your name.'],
    ['email', { email: 'priya-at-example' }, 'Please enter a valid email address'],
    ['subject', { subject: '' }, 'Please enter a subject.'],
    ['message', { message: undefined }, 'Please enter your message.'],
    ['category', { category: 'complaint' }, expect.any(String)],
    ['message', { message: 'x'.repeat(5001) }, 'Please keep this under 5000 characters.'],
  ])('refuses a bad %s with 400 and the field message', async (field, overrides, message) => {
    const res = await send(valid(overrides));
    expect(res.statusCode).toBe(400);
    const { error } = res.json();
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details.fields[field]).toEqual([message]);
  });

  it('lists every missing field of an empty body', async () => {
    const res = await send({});
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().error.details.fields).sort()).toEqual([
      'email',
      'message',
      'name',
      'subject',
    ]);
  });

  it('limits messages per client address', async () => {
    const ip = nextIp();
    for (let i = 0; i < CONTACT_LIMITS.perIp.limit; i += 1) {
      expect((await send(valid(), { ip })).statusCode).toBe(201);
    }
    const limited = await send(valid(), { ip });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('RATE_LIMITED');
    expect(limited.headers['retry-after']).toBeDefined();
  });
});

describe('POST /api/contact with SMTP configured', () => {
  let smtp: TestApp;
  beforeAll(async () => {
    smtp = await createTestApp({ env: { SMTP_URL: 'smtp://mail.example.test:25' } });
  });
  afterAll(async () => {
    await smtp.close();
  });

  it('e-mails the message to support with the author as reply-to and records when', async () => {
    const res = await send(
      valid({ subject: 'Invoice\r\nBcc: victim@example.test', category: 'billing' }),
      { app: smtp },
    );
    expect(res.statusCode).toBe(201);
    const mail = smtp.mailer.sent.at(-1);
    expect(mail).toMatchObject({
      to: 'support@rentgpu.dev',
      replyTo: 'priya@example.test',
      subject: '[Contact: Billing & Payments] Invoice Bcc: victim@example.test',
    });
    expect(mail?.text).toContain('From: Priya Sharma <priya@example.test>');
    expect(mail?.text).toContain('Do you have 8x A100 nodes available in India next week?');
    expect((await stored(res.json().id, smtp))?.emailedAt).toBeInstanceOf(Date);
  });
});

describe('GET /api/admin/contact-messages', () => {
  it('answers 401 signed out and 403 to a user who is not an admin', async () => {
    const signedOut = await t.request({ method: 'GET', url: '/api/admin/contact-messages' });
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json().error.code).toBe('UNAUTHENTICATED');

    const { cookie } = await t.signIn();
    const renter = await t.request({ method: 'GET', url: '/api/admin/contact-messages', cookie });
    expect(renter.statusCode).toBe(403);
    expect(renter.json().error.code).toBe('FORBIDDEN');
  });

  it('lists messages newest first for an admin, honouring the limit', async () => {
    const first = await send(valid({ subject: 'Older message' }));
    t.clock.advance(1000);
    const second = await send(valid({ subject: 'Newer message', category: 'bug' }));
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);

    const { cookie } = await t.signIn({ isAdmin: true });
    const res = await t.request({
      method: 'GET',
      url: '/api/admin/contact-messages?limit=200',
      cookie,
    });
    expect(res.statusCode).toBe(200);
    const { messages } = res.json();
    const ids = messages.map((m: { id: string }) => m.id);
    expect(ids.indexOf(second.json().id)).toBeLessThan(ids.indexOf(first.json().id));
    expect(messages.find((m: { id: string }) => m.id === second.json().id)).toMatchObject({
      subject: 'Newer message',
      category: 'bug',
      email: 'priya@example.test',
      emailedAt: null,
      createdAt: expect.any(String),
    });

    const one = await t.request({
      method: 'GET',
      url: '/api/admin/contact-messages?limit=1',
      cookie,
    });
    expect(one.json().messages).toHaveLength(1);

    const bad = await t.request({
      method: 'GET',
      url: '/api/admin/contact-messages?limit=0',
      cookie,
    });
    expect(bad.statusCode).toBe(400);
  });
});
