import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiError } from '../../http/api-error';
import { TabEntity } from './tab.entity';
import { TabRepository } from './tab.repository';
import { TabTokens } from './tab-tokens';

/** What placement knows when it asks which tab an order is a round of. */
export interface RoundRequest {
  businessUuid: string;
  ownerUuid: string;
  menuUuid: string;
  menuExtra: Record<string, unknown>;
  fulfilmentType: string;
  /** `customer_onpremise_location` as sent. */
  table: string | null;
  currency: string | null;
  /** The guest's `tab_token`, when sent. */
  tabToken?: string;
  /** For an order the team takes: the member, and the tab they named. */
  staff?: { userUuid: string; tabUuid?: string };
}

/** Whether a menu's dine-in orders for a table join its tab (`fulfilment.dine_in.pay_at_end`). */
export function paysAtEnd(menuExtra: Record<string, unknown>): boolean {
  const fulfilment = menuExtra.fulfilment as { dine_in?: { pay_at_end?: unknown } } | undefined;
  return fulfilment?.dine_in?.pay_at_end === true;
}

function refuseSettling(tab: TabEntity): void {
  if (tab.status === 'settling') {
    // R112: a tab being split takes no new round.
    throw ApiError.conflict('The table’s tab is being settled and takes no new round.', [
      { field: 'tab', message: 'the tab is settling', tab_uuid: tab.uuid },
    ]);
  }
}

/**
 * Which tab a new order joins, in the placement's transaction, with the
 * tab's row locked until it commits (a split or a close waits for the round,
 * or the round for them). Null: the order is paid on its own.
 */
@Injectable()
export class TabRounds {
  constructor(
    private readonly tabs: TabRepository,
    private readonly tokens: TabTokens,
  ) {}

  async roundFor(
    manager: EntityManager,
    request: RoundRequest,
  ): Promise<{ tab: TabEntity; opened: boolean } | null> {
    const { staff } = request;
    if (staff?.tabUuid) {
      const tab = await this.tabs.findForUpdate(manager, staff.tabUuid.toLowerCase());
      if (!tab || tab.businessUuid !== request.businessUuid) {
        throw ApiError.notFound('The tab does not exist.');
      }
      if (tab.menuUuid !== request.menuUuid) {
        throw ApiError.unprocessable('The tab is of another menu.', [
          { field: 'tab_uuid', message: 'the tab is of another menu' },
        ]);
      }
      if (tab.status === 'closed') {
        throw ApiError.conflict('The tab is closed.', [
          { field: 'tab_uuid', message: 'the tab is closed' },
        ]);
      }
      refuseSettling(tab);
      return { tab, opened: false };
    }
    const table = request.table?.trim();
    if (
      request.fulfilmentType !== 'dine_in' ||
      !paysAtEnd(request.menuExtra) ||
      !table ||
      table === '_'
    ) {
      return null;
    }
    const newTab = {
      businessUuid: request.businessUuid,
      menuUuid: request.menuUuid,
      ownerUuid: request.ownerUuid,
      table: request.table!,
      currency: request.currency,
      openedBy: staff?.userUuid ?? null,
    };
    if (staff) {
      // R109: the team's dine-in order for a table joins its tab, opening one when there is none.
      const found = await this.tabs.openOrFind(manager, newTab);
      refuseSettling(found.tab);
      return found;
    }
    const current = await this.tabs.notClosedForTable(manager, request.menuUuid, request.table!);
    if (request.tabToken !== undefined) {
      // R109: the party's token names the table's tab that is not closed; a spent one opens nothing.
      if (!current || !this.tokens.matches(current.uuid, request.tabToken)) {
        throw ApiError.conflict('The tab token is spent or is not this table’s open tab.', [
          { field: 'tab_token', message: 'not the open tab of this table' },
        ]);
      }
      refuseSettling(current);
      return { tab: current, opened: false };
    }
    // R109: a stranger who knows the table's number cannot add to the party's bill.
    const found = current
      ? { tab: current, opened: false }
      : await this.tabs.openOrFind(manager, newTab);
    if (!found.opened) {
      throw ApiError.conflict(
        'The table’s tab is open: send the tab_token of its party, or ask the staff.',
        [
          {
            field: 'customer_onpremise_location',
            message: 'the table’s tab is open',
          },
        ],
      );
    }
    return found;
  }
}
