import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Money } from '../../common/money';
import { Transaction } from '../../database/event-bus';
import { PaymentRow, PaymentService } from '../../payment';
import { OrderEntity } from '../entities';
import { formatUnits, toUnits } from './domain/bill-split';
import { TabClosed } from './tab-events';
import { TabEntity, TabShareEntity } from './tab.entity';
import { TabRepository } from './tab.repository';

/** Rounds that do not count toward the bill. */
const ENDED_UNPAID = new Set(['cancelled', 'rejected']);

/** A tab's money in units: its counted rounds, its shares, what they come to, paid and due. */
export interface TabMoney {
  total: number;
  paid: number;
  due: number;
  rounds: OrderEntity[];
  shares: TabShareEntity[];
}

export function iso(value: Date | string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

/**
 * What a tab owes and the lock every change of it takes: the tab's counted
 * rounds against its paid shares.
 */
@Injectable()
export class TabLedger {
  constructor(
    private readonly tabs: TabRepository,
    private readonly payments: PaymentService,
  ) {}

  /** What the tab's counted rounds come to, what its paid shares paid, and what is due (in units). */
  async money(manager: EntityManager, tab: TabEntity): Promise<TabMoney> {
    const rounds = (await this.tabs.roundsOf([tab.uuid], manager)).filter(
      (round) => !ENDED_UNPAID.has(round.status),
    );
    const shares = await this.tabs.sharesOf([tab.uuid], manager);
    const total = rounds.reduce((sum, round) => sum + toUnits(round.amount), 0);
    const paid = shares
      .filter((share) => share.status === 'paid')
      .reduce((sum, share) => sum + toUnits(share.amount), 0);
    return { total, paid, due: Math.max(0, total - paid), rounds, shares };
  }

  /**
   * The tab's row lock, taken after the payment locks of its shares: a
   * share's payment changes under its own lock and then reaches the tab
   * (TabPayments.heardOfPayment), so every path takes the shares' locks
   * first and no two transactions wait for each other in a circle.
   */
  async lockTab(tx: Transaction, uuid: string): Promise<TabEntity> {
    for (const share of await this.tabs.sharesOf([uuid], tx.manager)) {
      await this.payments.lock(tx, share.uuid);
    }
    return (await this.tabs.findForUpdate(tx.manager, uuid))!;
  }
}

/** What a share's paid payments brought in, their tips aside. */
export function sharePaid(payments: readonly PaymentRow[]): Money {
  return payments.reduce(
    (sum, payment) =>
      payment.status === 'paid' ? sum.plus(payment.amountPaid).minus(payment.tipAmount) : sum,
    new Money(0),
  );
}

/** What `tab.closed` carries: the tab's summary as the webhooks send it. */
export function closedEvent(
  tab: TabEntity,
  money: { total: number; paid: number; due: number; rounds: readonly OrderEntity[] },
): TabClosed {
  return {
    ownerUuid: tab.ownerUuid,
    businessUuid: tab.businessUuid,
    tab: {
      uuid: tab.uuid,
      business_uuid: tab.businessUuid,
      menu_uuid: tab.menuUuid,
      table: tab.table,
      status: 'closed',
      total: formatUnits(money.total),
      paid: formatUnits(money.paid),
      due: formatUnits(money.due),
      currency: tab.currency,
      opened_at: iso(tab.openedAt)!,
      closed_at: iso(tab.closedAt),
      close_reason: tab.closeReason,
      round_uuids: money.rounds.map((round) => round.uuid),
    },
  };
}
