import nodemailer, { type Transporter } from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/** Mail over SMTP_URL (smtp://user:pass@host:port, or smtps:// for implicit TLS); one pooled transport. */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  let transport: Transporter | undefined;
  return {
    async send(mail) {
      transport ??= nodemailer.createTransport(smtpUrl);
      await transport.sendMail({ from, ...mail });
    },
    close() {
      transport?.close();
    },
  };
}
