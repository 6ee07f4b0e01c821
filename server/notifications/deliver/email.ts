/** Sends one message through the admin's SMTP server (nodemailer), with bounded waits. */
import nodemailer from 'nodemailer';
import type { Digest } from '../digest';

export interface SmtpServer {
  host: string;
  port: number;
  secure: boolean;
  user: string | null;
  password: string | null;
  from: string;
}

export async function sendMail(smtp: SmtpServer, to: string, message: Digest): Promise<void> {
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    auth: smtp.user ? { user: smtp.user, pass: smtp.password ?? '' } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  try {
    await transport.sendMail({ from: smtp.from, to, subject: message.subject, text: message.text, html: message.html });
  } finally {
    transport.close();
  }
}
