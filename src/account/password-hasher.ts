import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';

/** argon2id with OWASP's minimum parameters (19 MiB, 2 passes, 1 lane). */
const OPTIONS = {
  type: argon2.argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} satisfies argon2.HashOptions;

// R9: secrets.
@Injectable()
export class PasswordHasher {
  private dummy: Promise<string> | undefined;

  hash(password: string): Promise<string> {
    return argon2.hash(password, OPTIONS);
  }

  /** False for a wrong password and for a hash that is not argon2 (never throws on bad input). */
  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }

  /**
   * Spends the same work as a real check when there is no user to check
   * against, so the answer time does not tell whether an email is registered.
   */
  async verifyNobody(password: string): Promise<false> {
    this.dummy ??= this.hash(`no-user-${Math.random()}`);
    await this.verify(await this.dummy, password);
    return false;
  }

  /** True when the hash was made with other parameters and should be remade at the next login. */
  needsRehash(hash: string): boolean {
    try {
      return argon2.needsRehash(hash, OPTIONS);
    } catch {
      return false;
    }
  }
}
