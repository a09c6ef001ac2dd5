import { Injectable } from '@nestjs/common';

export interface FeaturedUrlCheckInput {
  /** The new entity_featured_url (never empty). */
  url: string;
  /** The user saving the record; the object should be theirs. */
  ownerUuid: string;
  entityType: string;
  /** The record being updated; null on create. */
  recordUuid: string | null;
}

/** Refuses by throwing an ApiError (for instance 422); resolves when the URL may be stored. */
export type FeaturedUrlCheck = (input: FeaturedUrlCheckInput) => Promise<void>;

/**
 * The one place where another module checks an entity_featured_url when a
 * record first gets it (created with it, or updated to a different one):
 * the files module inspects the uploaded object there.
 * That module registers its check at start-up (`register`); the entity
 * service runs every registered check before it writes.
 */
@Injectable()
export class FeaturedUrlChecks {
  private readonly checks: FeaturedUrlCheck[] = [];

  register(check: FeaturedUrlCheck): void {
    this.checks.push(check);
  }

  async run(input: FeaturedUrlCheckInput): Promise<void> {
    for (const check of this.checks) await check(input);
  }
}
