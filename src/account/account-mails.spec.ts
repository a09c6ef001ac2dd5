import { codeMail, escapeHtml } from './account-mails';

describe('account mails', () => {
  it('put the code in the text and the HTML, addressed to the user', () => {
    const mail = codeMail('reset_password', { email: 'ann@example.test', name: 'Ann' }, '12345678');
    expect(mail.to).toBe('ann@example.test');
    expect(mail.subject).toBe('Your password reset code');
    expect(mail.text).toContain('12345678');
    expect(mail.text).toContain('Hello Ann,');
    expect(mail.text).toContain('30 minutes');
    expect(mail.html).toContain('12345678');
  });

  it('carry exactly one long number, the code, so a reader cannot pick the wrong one', () => {
    for (const purpose of ['reset_password', 'change_password', 'verify_email'] as const) {
      const mail = codeMail(purpose, { email: 'a@example.test', name: 'A' }, '87654321');
      expect(mail.text.match(/\d{6,}/g)).toEqual(['87654321']);
    }
  });

  it('escape the name in HTML', () => {
    const mail = codeMail(
      'verify_email',
      { email: 'x@example.test', name: '<script>alert("x")</script>' },
      '12345678',
    );
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
  });

  it('escapeHtml covers the five special characters', () => {
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });
});
