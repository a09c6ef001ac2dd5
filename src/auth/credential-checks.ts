import { Injectable } from '@nestjs/common';
import { AuthUser } from './auth.decorator';
import { UserTokenVersions } from './user-token-versions';

/** The credential a long-lived connection (an event stream) was opened with. */
export interface HeldCredential {
  userUuid: string;
  /** The user's token version the access token was issued at. */
  tokenVersion: number;
  /** When the access token expires (epoch ms); null when it does not say. */
  expiresAtMs: number | null;
}

/**
 * Which of `held` no longer hold, and why (a sentence for the client), from
 * one set-based look at all of them.
 */
export type CredentialCheck = (
  held: readonly HeldCredential[],
  nowMs: number,
) => Promise<Map<HeldCredential, string>>;

/** The credential of a request answered through the Bearer token. */
export function heldCredentialOf(user: AuthUser): HeldCredential {
  return {
    userUuid: user.uuid,
    tokenVersion: user.tokenVersion ?? 0,
    expiresAtMs: user.expiresAtMs ?? null,
  };
}

/**
 * The checks a request's credential passed when it came in, asked again
 * while a connection opened with it stays open: a stream must end when its
 * credential does. Built in: the token's expiry, and the user's token
 * version (a password change or reset voids older tokens; so does a deleted
 * user). Other rules (such as a removed membership) register a check of
 * their own.
 */
@Injectable()
export class CredentialChecks {
  private readonly checks: CredentialCheck[] = [];

  constructor(private readonly users: UserTokenVersions) {
    this.register(async (held, nowMs) => {
      const revoked = new Map<HeldCredential, string>();
      for (const credential of held) {
        if (credential.expiresAtMs !== null && credential.expiresAtMs <= nowMs) {
          revoked.set(credential, 'The access token expired; log in again.');
        }
      }
      return revoked;
    });
    this.register((held) => this.tokenVersions(held));
  }

  register(check: CredentialCheck): void {
    this.checks.push(check);
  }

  /** The credentials of `held` that no longer hold, with the first reason found. */
  async revoked(
    held: readonly HeldCredential[],
    nowMs: number,
  ): Promise<Map<HeldCredential, string>> {
    const revoked = new Map<HeldCredential, string>();
    for (const check of this.checks) {
      const still = held.filter((credential) => !revoked.has(credential));
      if (still.length === 0) break;
      for (const [credential, reason] of await check(still, nowMs)) revoked.set(credential, reason);
    }
    return revoked;
  }

  private async tokenVersions(
    held: readonly HeldCredential[],
  ): Promise<Map<HeldCredential, string>> {
    const uuids = [...new Set(held.map((credential) => credential.userUuid))];
    const versions = await this.users.versionsOf(uuids);
    const revoked = new Map<HeldCredential, string>();
    for (const credential of held) {
      if (versions.get(credential.userUuid) !== credential.tokenVersion) {
        revoked.set(credential, 'The access token is no longer valid; log in again.');
      }
    }
    return revoked;
  }
}
