import { randomUUID } from 'node:crypto';
import { AccountRepository } from '../../src/account/account.repository';
import { AccountTokenVersions } from '../../src/account/account-token-versions';
import { UserContacts } from '../../src/account/user-contacts';
import { UserTokenRepository } from '../../src/account/user-token.repository';
import { CredentialChecks, HeldCredential } from '../../src/auth/credential-checks';
import { UserTokenVersions } from '../../src/auth/user-token-versions';
import { createMediumContext, MediumContext } from '../support/medium';

/**
 * The account module's reads for other modules, on a real database: a
 * user's contact, token versions (one at a time, coalesced, and in bulk)
 * and the credential checks of open streams built on them.
 */
describe('account repository (medium)', () => {
  let ctx: MediumContext;
  let users: AccountRepository;

  beforeAll(async () => {
    ctx = await createMediumContext({
      providers: [
        AccountRepository,
        UserTokenRepository,
        UserContacts,
        CredentialChecks,
        { provide: UserTokenVersions, useClass: AccountTokenVersions },
      ],
    });
    users = ctx.get(AccountRepository);
  });
  afterAll(() => ctx?.close());

  async function newUser(name = 'Ada') {
    const tag = randomUUID().slice(0, 8);
    return users.insert({
      email: `${tag}@example.test`,
      name,
      username: `user_${tag}`,
      passwordHash: 'hash',
      metaData: {},
    });
  }

  it("answers a user's contact inside the caller's transaction, nothing for an unknown one", async () => {
    const user = await newUser('Grace');
    const contacts = ctx.get(UserContacts);
    await ctx.dataSource.transaction(async (manager) => {
      expect(await contacts.contactOf(manager, user.uuid)).toEqual({
        email: user.email,
        name: 'Grace',
      });
      expect(await contacts.contactOf(manager, randomUUID())).toBeNull();
    });
  });

  it('reads token versions in bulk, leaving unknown users out', async () => {
    const a = await newUser();
    const b = await newUser();
    await ctx.dataSource.transaction((manager) => users.replacePassword(manager, b.uuid, 'new'));
    const unknown = randomUUID();
    const versions = await users.tokenVersionsOf([a.uuid, b.uuid, unknown]);
    expect(versions).toEqual(
      new Map([
        [a.uuid, 0],
        [b.uuid, 1],
      ]),
    );
    expect(await users.tokenVersionsOf([])).toEqual(new Map());
  });

  it('answers concurrent token-holder reads, each with its own user, and null for malformed or unknown ones', async () => {
    const a = await newUser();
    const b = await newUser();
    const versions = ctx.get<UserTokenVersions>(UserTokenVersions as never);
    const [ha, hb, upper, unknown, malformed] = await Promise.all([
      versions.holderOf(a.uuid),
      versions.holderOf(b.uuid),
      versions.holderOf(a.uuid.toUpperCase()),
      versions.holderOf(randomUUID()),
      versions.holderOf('not-a-uuid'),
    ]);
    expect(ha).toEqual({ uuid: a.uuid, tokenVersion: 0 });
    expect(hb).toEqual({ uuid: b.uuid, tokenVersion: 0 });
    expect(upper).toEqual({ uuid: a.uuid, tokenVersion: 0 });
    expect(unknown).toBeNull();
    expect(malformed).toBeNull();
  });

  it('revokes held credentials whose token version moved, whose user is gone or that expired', async () => {
    const kept = await newUser();
    const changed = await newUser();
    await ctx.dataSource.transaction((manager) =>
      users.replacePassword(manager, changed.uuid, 'new'),
    );
    const now = Date.now();
    const held: HeldCredential[] = [
      { userUuid: kept.uuid, tokenVersion: 0, expiresAtMs: now + 60_000 },
      { userUuid: changed.uuid, tokenVersion: 0, expiresAtMs: null },
      { userUuid: randomUUID(), tokenVersion: 0, expiresAtMs: null },
      { userUuid: kept.uuid, tokenVersion: 0, expiresAtMs: now - 1 },
    ];
    const revoked = await ctx.get(CredentialChecks).revoked(held, now);
    expect(new Set(revoked.keys())).toEqual(new Set(held.slice(1)));
    expect(revoked.get(held[1])).toBe('The access token is no longer valid; log in again.');
    expect(revoked.get(held[3])).toBe('The access token expired; log in again.');
  });

  describe('emailed codes (user_tokens)', () => {
    const now = new Date('2026-03-01T12:00:00Z');
    const later = new Date('2026-03-01T12:10:00Z');

    it('a new code replaces the old one, with its tries reset', async () => {
      const tokens = ctx.get(UserTokenRepository);
      const user = await newUser();
      await ctx.dataSource.transaction((m) =>
        tokens.replace(m, user.uuid, 'reset_password', 'old', later, now),
      );
      expect(await tokens.spendAttempt(user.uuid, 'reset_password', now, 5)).toBe('old');
      await ctx.dataSource.transaction((m) =>
        tokens.replace(m, user.uuid, 'reset_password', 'new', later, now),
      );
      const rows = await ctx.sql<{ token_hash: string; attempts: number }>(
        'SELECT token_hash, attempts FROM user_tokens WHERE user_uuid = $1',
        [user.uuid],
      );
      expect(rows).toEqual([{ token_hash: 'new', attempts: 0 }]);
    });

    it('concurrent guesses spend exactly the tries there are, and none after expiry', async () => {
      const tokens = ctx.get(UserTokenRepository);
      const user = await newUser();
      await ctx.dataSource.transaction((m) =>
        tokens.replace(m, user.uuid, 'reset_password', 'hash', later, now),
      );
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => tokens.spendAttempt(user.uuid, 'reset_password', now, 3)),
      );
      expect(answers.filter((answer) => answer === 'hash')).toHaveLength(3);
      expect(answers.filter((answer) => answer === undefined)).toHaveLength(5);
      const other = await newUser();
      await ctx.dataSource.transaction((m) =>
        tokens.replace(m, other.uuid, 'reset_password', 'hash', later, now),
      );
      expect(await tokens.spendAttempt(other.uuid, 'reset_password', later, 3)).toBeUndefined();
    });

    it('a code is marked used once, never after expiry nor when replaced', async () => {
      const tokens = ctx.get(UserTokenRepository);
      const user = await newUser();
      await ctx.dataSource.transaction((m) =>
        tokens.replace(m, user.uuid, 'reset_password', 'hash', later, now),
      );
      const mark = (hash: string, at: Date) =>
        ctx.dataSource.transaction((m) =>
          tokens.markUsed(m, user.uuid, 'reset_password', hash, at),
        );
      expect(await mark('other', now)).toBe(false);
      expect(await mark('hash', later)).toBe(false);
      expect(await mark('hash', now)).toBe(true);
      expect(await mark('hash', now)).toBe(false);
      expect(await tokens.spendAttempt(user.uuid, 'reset_password', now, 5)).toBeUndefined();
    });
  });
});
