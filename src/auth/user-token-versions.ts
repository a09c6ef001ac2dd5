/** A user as the auth kernel knows it: who, and the token version their tokens must carry. */
export interface TokenHolder {
  uuid: string;
  tokenVersion: number;
}

/**
 * What the auth kernel asks of the account module: the user and the token
 * version their access tokens must carry (a password change or reset raises
 * it), or null for an unknown user. The account module provides it, so the kernel
 * reads no account table itself.
 */
export abstract class UserTokenVersions {
  abstract holderOf(userUuid: string): Promise<TokenHolder | null>;

  /**
   * The token version of each of these users, in one statement and not
   * shared with other reads (unknown users are left out). Every uuid must
   * be well formed.
   */
  abstract versionsOf(userUuids: readonly string[]): Promise<Map<string, number>>;
}
