import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { EventBus } from '../../database/event-bus';
import { ApiError } from '../../http/api-error';
import { PaymentService } from '../../payment';
import { OrderEntity } from '../entities';
import { OrderRepository } from '../order.repository';
import {
  formatUnits,
  ItemShare,
  splitByAmounts,
  splitByItems,
  splitEqually,
  SplitLine,
  toUnits,
} from './domain/bill-split';
import { SplitTabDto, TabResponseDto } from './tab.dto';
import { TabShareEntity, TabShareLine } from './tab.entity';
import { TabLedger } from './tab-ledger';
import { NewShare, TabRepository } from './tab.repository';
import { readSplit } from './tab-split-request';
import { Reader, TabViews } from './tab-views';

/**
 * R112: splitting a tab's bill into shares, equally, by amounts or by
 * items, under the tab's lock; a new split replaces the unpaid shares only.
 */
@Injectable()
export class TabSplits {
  constructor(
    private readonly tabs: TabRepository,
    private readonly orders: OrderRepository,
    private readonly ledger: TabLedger,
    private readonly tabViews: TabViews,
    private readonly bus: EventBus,
    private readonly payments: PaymentService,
  ) {}

  async split(uuid: string, dto: SplitTabDto, reader: Reader): Promise<TabResponseDto> {
    const request = readSplit(dto);
    const tab = await this.bus.transaction(async (tx) => {
      const tab = await this.ledger.lockTab(tx, uuid);
      if (tab.status === 'closed') {
        throw ApiError.conflict('The tab is closed.', [
          { field: 'tab', message: 'the tab is closed' },
        ]);
      }
      const { due, rounds, shares } = await this.ledger.money(tx.manager, tab);
      // R112: a share being paid is not replaced under its payer.
      const unpaid = shares.filter((share) => share.status === 'unpaid').map((share) => share.uuid);
      const underWay = (await this.payments.ofShares(unpaid, tx.manager)).find(
        (payment) => payment.status === 'pending',
      );
      if (underWay) {
        throw ApiError.conflict('A payment of a share is under way; split again once it ends.', [
          { field: 'shares', message: 'a payment is under way', share_uuid: underWay.shareUuid },
        ]);
      }
      if (due <= 0) {
        throw ApiError.conflict('The tab owes nothing to split.', [
          { field: 'tab', message: 'nothing is due' },
        ]);
      }
      let amounts: number[];
      let lineSets: Array<TabShareLine[] | null>;
      if (request.by === 'equal') {
        amounts = splitEqually(due, request.parts);
        lineSets = amounts.map(() => null);
      } else if (request.by === 'amount') {
        const result = splitByAmounts(due, request.amounts);
        if (!Array.isArray(result)) {
          throw ApiError.unprocessable(`The amounts must sum to ${formatUnits(due)}.`, [result]);
        }
        amounts = result;
        lineSets = amounts.map(() => null);
      } else {
        const lines = await this.unpaidLines(tx.manager, rounds, shares);
        const itemShares: ItemShare[] = request.shares.map((share) => ({
          lines: share.lines.map((line) => ({
            key: `${line.order_uuid}/${line.line_uuid}`,
            quantity: line.quantity,
          })),
        }));
        const result = splitByItems(due, lines, itemShares);
        if (!Array.isArray(result)) {
          throw ApiError.unprocessable('The shares must cover every unpaid line exactly once.', [
            result,
          ]);
        }
        amounts = result;
        lineSets = request.shares.map((share) => share.lines);
      }
      // R112: a new split replaces the unpaid shares only.
      const newShares: NewShare[] = amounts.map((amount, index) => ({
        position: index,
        amount: formatUnits(amount),
        splitBy: request.by,
        lines: lineSets[index],
      }));
      await this.tabs.replaceUnpaidShares(tx.manager, tab.uuid, newShares);
      return this.tabs.setStatus(tx.manager, tab.uuid, { status: 'settling' });
    });
    return this.tabViews.view(tab, reader);
  }

  /** Every line of the counted rounds with how many of it no paid share has taken. */
  private async unpaidLines(
    manager: EntityManager,
    rounds: readonly OrderEntity[],
    shares: readonly TabShareEntity[],
  ): Promise<SplitLine[]> {
    const paidTaken = new Map<string, number>();
    for (const share of shares) {
      if (share.status !== 'paid') continue;
      for (const line of share.lines ?? []) {
        const key = `${line.order_uuid}/${line.line_uuid}`;
        paidTaken.set(key, (paidTaken.get(key) ?? 0) + line.quantity);
      }
    }
    const linesByOrder = await this.orders.linesOf(
      rounds.map((round) => round.uuid),
      manager,
    );
    return rounds.flatMap((round) =>
      (linesByOrder.get(round.uuid) ?? []).map((line) => {
        const key = `${round.uuid}/${line.uuid}`;
        return {
          key,
          totalUnits: toUnits(line.lineTotal),
          quantity: line.quantity,
          unpaidQuantity: Math.max(0, line.quantity - (paidTaken.get(key) ?? 0)),
        };
      }),
    );
  }
}
