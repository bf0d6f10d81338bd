import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpMailer } from './mailer';

/** A local SMTP sink: what SmtpMailer sends arrives as a real SMTP conversation. */
const received: { from: string; to: string[]; data: string }[] = [];
const sink = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    let data = '';
    stream.on('data', (chunk: Buffer) => {
      data += chunk.toString();
    });
    stream.on('end', () => {
      received.push({
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
        to: session.envelope.rcptTo.map((r) => r.address),
        data,
      });
      callback();
    });
  },
});
let url = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  url = `smtp://127.0.0.1:${(sink.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => sink.close(() => resolve()));
});

describe('SmtpMailer', () => {
  it('delivers through SMTP_URL with the configured sender', async () => {
    const mailer = new SmtpMailer(url, 'RentGPU <no-reply@rentgpu.dev>');
    try {
      await mailer.send({
        to: 'ada@example.test',
        subject: 'Your RentGPU sign-in code: 123456',
        text: 'Your RentGPU sign-in code is 123456',
      });
    } finally {
      mailer.close();
    }
    const mail = received.at(-1);
    expect(mail).toMatchObject({ from: 'no-reply@rentgpu.dev', to: ['ada@example.test'] });
    expect(mail?.data).toContain('Subject: Your RentGPU sign-in code: 123456');
    expect(mail?.data).toContain('Your RentGPU sign-in code is 123456');
  });
});
