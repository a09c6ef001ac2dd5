import { MailMessage } from '../mail/mail.port';
import { CODE_LIFETIME_MS } from './one-time-code';
import { TokenPurpose } from './user-token.entity';

const MINUTES = Math.round(CODE_LIFETIME_MS / 60_000);

const WORDING: Record<TokenPurpose, { subject: string; action: string; ignore: string }> = {
  reset_password: {
    subject: 'Your password reset code',
    action: 'Use this code to reset your password',
    ignore:
      'If you did not ask to reset your password, ignore this email; your password stays as it is.',
  },
  change_password: {
    subject: 'Your password change code',
    action: 'Use this code to change your password',
    ignore:
      'If you did not ask to change your password, someone may be signed in to your account: reset your password.',
  },
  verify_email: {
    subject: 'Verify your email address',
    action: 'Use this code to verify your email address',
    ignore: 'If you did not ask for this, ignore this email.',
  },
};

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The email carrying a one-time code: plain text with the code, and a simple HTML twin. */
export function codeMail(
  purpose: TokenPurpose,
  recipient: { email: string; name: string },
  code: string,
): MailMessage {
  const words = WORDING[purpose];
  const greeting = recipient.name.trim() ? `Hello ${recipient.name.trim()},` : 'Hello,';
  const validity = `It works once and expires in ${MINUTES} minutes.`;
  const text = [greeting, '', `${words.action}: ${code}`, '', validity, '', words.ignore, ''].join(
    '\n',
  );
  const html = [
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(words.action)}:</p>`,
    `<p style="font-size:24px;font-weight:bold;letter-spacing:4px">${escapeHtml(code)}</p>`,
    `<p>${escapeHtml(validity)}</p>`,
    `<p>${escapeHtml(words.ignore)}</p>`,
  ].join('\n');
  return { to: recipient.email, subject: words.subject, text, html, secrets: [code] };
}
