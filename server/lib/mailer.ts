import nodemailer, { type Transporter } from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** Where a reply goes, when not to the sender (a contact message's author). */
  replyTo?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/** Without SMTP_URL, mail is printed on the server console (DESIGN.md section 2). */
export class ConsoleMailer implements Mailer {
  constructor(
    private readonly write: (line: string) => void = (line) => process.stdout.write(line),
  ) {}

  async send(mail: Mail): Promise<void> {
    this.write(
      `\n──── e-mail (SMTP_URL is not set, so it is printed here) ────\nTo: ${mail.to}\nSubject: ${mail.subject}\n\n${mail.text}\n────────────────────────────────────────────────────────────\n`,
    );
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
    await this.transport.sendMail({ from: this.from, ...mail });
  }

  close(): void {
    this.transport.close();
  }
}
