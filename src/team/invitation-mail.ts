import { MailMessage } from '../mail/mail.port';

function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The accept link of an invitation: `{front}/invitations/accept?token=<token, percent-encoded>`. */
export function acceptLink(frontUrl: string, token: string): string {
  return `${frontUrl}/invitations/accept?token=${encodeURIComponent(token)}`;
}

/** The invitation: who invites, to which business, in which role, and the link. */
export function invitationMail(input: {
  to: string;
  businessTitle: string;
  role: string;
  link: string;
  /** The invitation's token, which the link carries: never written to a log. */
  token: string;
  days: number;
}): MailMessage {
  const what = `You are invited to work for ${input.businessTitle} as ${input.role}.`;
  const how = `Log in (or sign up) with this email address, then open this link to accept:`;
  const validity = `The link works once and expires in ${input.days} days.`;
  const ignore = 'If you did not expect this, ignore this email.';
  const text = ['Hello,', '', what, how, input.link, '', validity, '', ignore, ''].join('\n');
  const html = [
    '<p>Hello,</p>',
    `<p>${escapeHtml(what)}</p>`,
    `<p>${escapeHtml(how)}</p>`,
    `<p><a href="${escapeHtml(input.link)}">${escapeHtml(input.link)}</a></p>`,
    `<p>${escapeHtml(validity)}</p>`,
    `<p>${escapeHtml(ignore)}</p>`,
  ].join('\n');
  return {
    to: input.to,
    subject: `Invitation: ${input.businessTitle}`,
    text,
    html,
    secrets: [input.token, encodeURIComponent(input.token)],
  };
}
