import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleMailer, SmtpMailer } from './mailer';

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

describe('ConsoleMailer', () => {
  it('prints one boxed block with the code framed on a line of its own', async () => {
    const written: string[] = [];
    await new ConsoleMailer((text) => written.push(text)).send({
      to: 'ada@example.test',
      subject: 'Your RentGPU sign-in code: 123456',
      text: 'Your RentGPU sign-in code is 123456',
      code: '123456',
    });
    expect(written).toHaveLength(1);
    const lines = (written[0] ?? '').split('\n');
    const top = lines.findIndex((line) => line.startsWith('╔'));
    const bottom = lines.findIndex((line) => line.startsWith('╚'));
    expect(top).toBeGreaterThanOrEqual(0);
    expect(bottom).toBeGreaterThan(top);
    expect(lines[top]).toContain('SMTP_URL is not set');
    expect(lines[top + 1]).toBe('To: ada@example.test');
    expect(lines[top + 2]).toBe('Subject: Your RentGPU sign-in code: 123456');
    const codeLine = lines.findIndex((line) => /^\s*│\s+123456\s+│/.test(line));
    expect(codeLine).toBeGreaterThan(top + 2);
    expect(codeLine).toBeLessThan(bottom);
    expect(lines[codeLine - 1]).toMatch(/^\s*┌─+┐$/);
    expect(lines[codeLine + 1]).toMatch(/^\s*└─+┘$/);
  });

  it('prints a mail without a code without the code frame', async () => {
    const written: string[] = [];
    await new ConsoleMailer((text) => written.push(text)).send({
      to: 'ada@example.test',
      subject: 'Your RentGPU instance is ready (rental #1)',
      text: 'Rental #1 is ready.',
    });
    expect(written[0]).toContain('Rental #1 is ready.');
    expect(written[0]).not.toContain('┌');
  });
});
