import nodemailer, { type Transporter } from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** Where a reply goes, when not to the sender (a contact message's author). */
  replyTo?: string;
  /**
   * A code the reader types in (a sign-in code). It is in the text as well; the console
   * mailer also shows it on a line of its own so it stands out in the server's output.
   */
  code?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

const WIDTH = 64;
const rule = (left: string, label: string, right: string) =>
  `${left}${label}${'═'.repeat(Math.max(0, WIDTH - 2 - label.length))}${right}`;

/**
 * One e-mail as the console shows it: a boxed block written in one piece, so log lines
 * never land inside it, with a code (when there is one) framed on a line of its own.
 * "To:" and "Subject:" stay on adjacent lines; the browser tests read the code from them.
 */
export function formatConsoleMail(mail: Mail): string {
  const lines = [
    '',
    rule('╔', '══ e-mail (SMTP_URL is not set, so it is printed here) ', '╗'),
    `To: ${mail.to}`,
    `Subject: ${mail.subject}`,
  ];
  if (mail.replyTo) lines.push(`Reply-To: ${mail.replyTo}`);
  if (mail.code) {
    const inner = `  ${mail.code}  `;
    lines.push(
      '',
      `    ┌${'─'.repeat(inner.length)}┐`,
      `    │${inner}│   ◀ code`,
      `    └${'─'.repeat(inner.length)}┘`,
    );
  }
  lines.push('', mail.text, rule('╚', '', '╝'), '', '');
  return lines.join('\n');
}

/** Without SMTP_URL, mail is printed on the server console, where a sign-in code can be read. */
export class ConsoleMailer implements Mailer {
  constructor(
    private readonly write: (text: string) => void = (text) => process.stdout.write(text),
  ) {}

  async send(mail: Mail): Promise<void> {
    this.write(formatConsoleMail(mail));
  }

  close(): void {}
}

export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(url);
  }

  async send(mail: Mail): Promise<void> {
    const { code: _shownOnConsoleOnly, ...message } = mail;
    await this.transport.sendMail({ from: this.from, ...message });
  }

  close(): void {
    this.transport.close();
  }
}
