import { Injectable, OnModuleInit } from '@nestjs/common';
import { PgNotifications } from '../database/pg-notifications';

/** The PostgreSQL NOTIFY channel on which a change of a user's memberships is announced. */
const MEMBERSHIP_CHANNEL = 'business_members_changed';

type Listener = (userUuid: string) => void;

/**
 * "This user's memberships changed" (removed, left, role changed), heard by
 * every process: open order streams re-check their access at once instead of
 * waiting for their timer.
 */
@Injectable()
export class MembershipChanges implements OnModuleInit {
  private readonly listeners = new Set<Listener>();

  constructor(private readonly notifications: PgNotifications) {}

  async onModuleInit(): Promise<void> {
    await this.notifications.subscribe(MEMBERSHIP_CHANNEL, (userUuid) => this.emit(userUuid));
  }

  /** Calls `listener` with the user uuid of each change; answers the unsubscribe function. */
  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async announce(userUuid: string): Promise<void> {
    if (this.notifications.enabled) {
      await this.notifications.publish(MEMBERSHIP_CHANNEL, userUuid);
    } else {
      this.emit(userUuid);
    }
  }

  private emit(userUuid: string): void {
    for (const listener of this.listeners) listener(userUuid);
  }
}
