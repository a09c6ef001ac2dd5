import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock';
import { Money } from '../common/money';
import { whyNotApplicable } from './domain/discount-rules';
import { DiscountKind } from './discount.entity';
import { DiscountRepository } from './discount.repository';

/** A code that applies to the order. */
export interface ApplicableDiscount {
  uuid: string;
  code: string;
  kind: DiscountKind;
  value: string;
}

/**
 * Whether the code applies; when it does not, why, and whether the business
 * has no such live code at all (`unknown`: what guessing codes runs into).
 */
export type DiscountCheck =
  { ok: true; discount: ApplicableDiscount } | { ok: false; message: string; unknown: boolean };

export interface DiscountQuery {
  businessUuid: string;
  menuUuid: string;
  code: string;
  itemsSubtotal: Money;
  email: string;
  /** Lock the code's row until the transaction ends (placement); a quote reads without it. */
  lock: boolean;
}

/**
 * Discount codes as orders use them. A code is checked and redeemed in the
 * order's transaction: the code's row is locked first, so simultaneous
 * orders count its redemptions one after another and no limit is overrun.
 */
@Injectable()
export class DiscountRedemptions {
  constructor(
    private readonly repository: DiscountRepository,
    private readonly clock: Clock,
  ) {}

  /** Whether the code applies to the order; an unknown code is "not valid", never more. */
  async check(manager: EntityManager, query: DiscountQuery): Promise<DiscountCheck> {
    const code = query.code.trim();
    const email = query.email.trim().toLowerCase();
    let discount = /^[A-Za-z0-9_-]{1,32}$/.test(code)
      ? await this.repository.findByCode(manager, query.businessUuid, code, 'none')
      : null;
    if (!discount || discount.deletedAt) {
      return { ok: false, message: `The code ${code} is not valid.`, unknown: true };
    }
    // R59: limits shared by simultaneous orders.
    // Only a limit can be overrun by simultaneous orders, so only a code with
    // one serialises them: a limit on all redemptions locks the code's row (read
    // again under the lock, as it stands now), a limit per email only that
    // guest's orders of the code. A code without limits locks nothing.
    if (query.lock && discount.maxRedemptions !== null) {
      discount = await this.repository.findByCode(manager, query.businessUuid, code, 'row');
      if (!discount) return { ok: false, message: `The code ${code} is not valid.`, unknown: true };
    } else if (query.lock && discount.maxRedemptionsPerEmail !== null) {
      await this.repository.lockGuestRedemptions(manager, discount.uuid, email);
    }
    const limited = discount.maxRedemptions !== null || discount.maxRedemptionsPerEmail !== null;
    const counts = limited
      ? await this.repository.countRedemptions(manager, discount.uuid, email)
      : { redeemed: 0, redeemedByEmail: 0 };
    const problem = whyNotApplicable(discount, {
      menuUuid: query.menuUuid,
      itemsSubtotal: query.itemsSubtotal,
      now: this.clock.now(),
      ...counts,
    });
    if (problem) return { ok: false, message: problem, unknown: false };
    return {
      ok: true,
      discount: {
        uuid: discount.uuid,
        code: discount.code,
        kind: discount.kind,
        value: discount.value,
      },
    };
  }

  /** Counts the order's use of the code (after `check` with the lock, in the same transaction). */
  async redeem(
    manager: EntityManager,
    discountUuid: string,
    orderUuid: string,
    email: string,
  ): Promise<void> {
    await this.repository.insertRedemption(manager, {
      orderUuid,
      discountUuid,
      email: email.trim().toLowerCase(),
    });
  }

  /** Gives the order's redemption back (an order that ended rejected or cancelled). */
  async giveBack(manager: EntityManager, orderUuid: string): Promise<void> {
    await this.repository.deleteRedemption(manager, orderUuid);
  }
}
