import { Logger } from '@nestjs/common';
import { registerAndLogin } from './support/account';
import { newBusiness } from './support/entity';
import { expectOk } from './support/expect';
import { createUser } from './support/factory';
import { drainOutbox, lastMailTo, tokenIn } from './support/mail';
import { invitationTokenIn, membersPath } from './support/team';
import { startTestApp, TestApp } from './support/test-app';

// R65: log redaction.
/**
 * Without SMTP_URL, in development, each mail is written to the log as a
 * developer's mailbox. The codes and invitation tokens it carries are
 * redacted there as in every other log line; the outbox row, the mailbox
 * the tests and developers read, keeps them.
 */
describe("the log mail transport's lines carry no emailed code", () => {
  let t: TestApp;
  const logged: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({ NODE_ENV: 'development' });
    // What the log transport hands to the log, line by line.
    jest.spyOn(Logger.prototype, 'log').mockImplementation(function (message: unknown) {
      if (typeof message === 'string' && message.startsWith('Mail (log transport)')) {
        logged.push(message);
      }
    });
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await t?.close();
  });

  async function loggedMailTo(email: string): Promise<string> {
    await drainOutbox(t);
    const lines = logged.filter((line) => line.includes(` to ${email}: `));
    expect(lines.length).toBeGreaterThan(0);
    return lines.join('\n');
  }

  it('redacts reset and verification codes in the log line, and the mailbox keeps them', async () => {
    const user = await registerAndLogin(t);
    expectOk(
      await t.http
        .post(`${t.core}/user/reset-password`)
        .set({ 'x-api-key': t.config.apiKeys[0] })
        .send({ email_address: user.email }),
    );
    const reset = await lastMailTo(t, user.email, /reset/i);
    const resetCode = tokenIn(reset);
    expectOk(await t.http.post(`${t.core}/user/verify-email-address`).set(user.headers).send({}));
    const verify = await lastMailTo(t, user.email, /Verify/);
    const verifyCode = tokenIn(verify);

    const line = await loggedMailTo(user.email);
    // The body is written (development), the codes are not.
    expect(line).toContain('Use this code to reset your password: [redacted]');
    expect(line).toContain('Use this code to verify your email address: [redacted]');
    expect(line).not.toContain(resetCode);
    expect(line).not.toContain(verifyCode);
    // The mailbox is where a developer or a test reads them.
    expect(reset.text).toContain(resetCode);
    expect(verify.text).toContain(verifyCode);
  });

  it('redacts the token of an invitation link', async () => {
    const owner = await createUser(t);
    const business = await newBusiness(t, owner);
    const email = `invited-${Date.now()}@example.test`;
    expectOk(
      await t.http
        .post(membersPath(t, business.uuid))
        .set(owner.headers)
        .send({ email, role: 'staff' }),
      201,
    );
    const token = invitationTokenIn((await lastMailTo(t, email, /Invitation/)).text);
    const line = await loggedMailTo(email);
    expect(line).toContain('/invitations/accept?token=[redacted]');
    expect(line).not.toContain(token);
    expect(line).not.toContain(encodeURIComponent(token));
  });
});
