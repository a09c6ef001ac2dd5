import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AccountRepository } from './account.repository';

/** Where mail about a user's business reaches them. */
export interface UserContact {
  email: string;
  name: string;
}

/**
 * The account module's answer to "how do I reach this user?", for modules
 * that send mail on a user's behalf (the owner's new-order alert) without
 * reading the account tables themselves.
 */
@Injectable()
export class UserContacts {
  constructor(private readonly users: AccountRepository) {}

  /** Runs inside the caller's transaction (`manager`); null for an unknown user. */
  async contactOf(manager: EntityManager, userUuid: string): Promise<UserContact | null> {
    return (await this.users.contactOf(manager, userUuid)) ?? null;
  }
}
