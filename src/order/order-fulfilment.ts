import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock';
import {
  EntityRecord,
  EntityService,
  locationOf,
  OrderableMenu,
  quoteZone,
  StorefrontService,
  ZoneQuote,
} from '../entity';
import { ApiError, ErrorDetail } from '../http/api-error';
import {
  FulfilmentRules,
  fulfilmentProblems,
  inferFulfilment,
  readFulfilment,
} from './domain/fulfilment';
import { FulfilmentType } from './domain/fulfilment-type';
import { isDeliveryItem, OrderableItem, PricedLine } from './domain/cart-pricing';
import { PlaceOrderDto } from './dto/place-order.dto';
import { SlotDto } from './dto/slots.dto';
import { UpdateOrderDto } from './dto/update-order.dto';
import { OrderEntity } from './entities';
import { OrderSlotsRepository } from './order-slots.repository';

/** What the hand-over rules read of an order body (placement's or a quote's). */
export type HandOverBody = Pick<
  PlaceOrderDto,
  'fulfilment_type' | 'delivery_data' | 'onpremise_data' | 'requested_time'
>;

/** The delivery zone that prices a delivery, and what it charges this order. */
export interface PlacedZone {
  key: string;
  title: string;
  fee: Decimal;
  etaMinutes: number | null;
}

/** How a placed order is handed over, and when. */
export interface FulfilmentPlan {
  type: FulfilmentType;
  /** Null: an order for now. */
  requestedTime: Date | null;
  /** A delivery from a menu with zones: its zone; null otherwise. */
  zone: PlacedZone | null;
}

/** How far a ready time sent by the team may lie from now, either way. */
const READY_AT_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The placement's rules of hand-over and time: the fulfilment type (sent or
 * inferred) against the menu's modes, address, delivery line, location and
 * minimum; an order for later against the menu's scheduling and the
 * business's hours, and its place in the slot taken under the slot's lock.
 */
@Injectable()
export class OrderFulfilment {
  constructor(
    private readonly storefront: StorefrontService,
    private readonly entities: EntityService,
    private readonly clock: Clock,
    private readonly slotCounts: OrderSlotsRepository,
  ) {}

  /**
   * Whether the order may be a delivery before its lines are known: it says
   * so, or names no type and gives an address. Any other order is a delivery
   * only through a line of category Delivery (see inferFulfilment), which
   * tells by itself that the menu has delivery areas.
   */
  mayBeDelivery(dto: HandOverBody): boolean {
    if (dto.fulfilment_type !== undefined) return dto.fulfilment_type === 'delivery';
    return (dto.delivery_data?.delivery_address ?? '').trim() !== '';
  }

  /** Whether the order is for later: such an order may be placed while the business is closed. */
  isForLater(dto: HandOverBody): boolean {
    return dto.requested_time !== undefined;
  }

  /**
   * The hand-over and the requested time with the problems placement would
   * refuse them for (none: the plan holds); the type is the one sent or
   * inferred either way, so a quote can price it.
   */
  check(
    dto: HandOverBody,
    orderable: Pick<OrderableMenu, 'menu' | 'business' | 'hasDeliveryItems' | 'deliveryZones'>,
    lines: readonly PricedLine[],
    itemsByUuid: ReadonlyMap<string, OrderableItem>,
  ): FulfilmentPlan & { problems: ErrorDetail[] } {
    const deliveryLines = lines.filter((line) => isDeliveryItem(itemsByUuid.get(line.itemUuid)!));
    const deliveryFee = deliveryLines.reduce(
      (sum, line) => sum.plus(line.lineTotal),
      new Decimal(0),
    );
    const itemsSubtotal = lines
      .reduce((sum, line) => sum.plus(line.lineTotal), new Decimal(0))
      .minus(deliveryFee);
    const rules = readFulfilment(orderable.menu.extraData);
    const request = {
      fulfilmentType: dto.fulfilment_type,
      deliveryAddress: dto.delivery_data?.delivery_address ?? '',
      onpremiseLocation: dto.onpremise_data?.customer_onpremise_location ?? '',
    };
    const type = inferFulfilment(request, deliveryLines.length);
    const zone = this.zoneOf(type, dto, orderable.deliveryZones, rules, itemsSubtotal);
    const problems: ErrorDetail[] = fulfilmentProblems({
      type,
      request,
      rules,
      // Not read for an order that cannot be a delivery (see mayBeDelivery),
      // unless one of its lines is a delivery area: then the menu has one.
      menuHasDeliveryItems: orderable.hasDeliveryItems ?? deliveryLines.length > 0,
      deliveryLines: deliveryLines.length,
      itemsSubtotal,
      zone,
    });
    const placed: PlacedZone | null =
      zone && zone !== 'no location' && zone.ok
        ? {
            key: zone.zone.key,
            title: zone.zone.title,
            fee: zone.terms.fee,
            etaMinutes: zone.terms.etaMinutes,
          }
        : null;
    if (problems.length || dto.requested_time === undefined) {
      return { type, requestedTime: null, zone: placed, problems };
    }

    const requested = new Date(dto.requested_time);
    const problem = !rules.scheduling.enabled
      ? 'This menu takes no orders for later.'
      : Number.isNaN(requested.getTime())
        ? 'requested_time is not a real date and time.'
        : this.storefront.requestedTimeProblem(
            orderable.business,
            { ...rules.scheduling, prepTimeMinutes: rules.prepTimeMinutes },
            requested,
          );
    if (problem) {
      return {
        type,
        requestedTime: null,
        zone: placed,
        problems: [{ field: 'requested_time', message: problem }],
      };
    }
    return { type, requestedTime: requested, zone: placed, problems: [] };
  }

  /**
   * The zone of a delivery from a menu with zones (or 'no location' when
   * delivery_data gives neither a point nor an area); undefined otherwise.
   */
  private zoneOf(
    type: FulfilmentType,
    dto: HandOverBody,
    zones: OrderableMenu['deliveryZones'],
    rules: FulfilmentRules,
    itemsSubtotal: Decimal,
  ): ZoneQuote | 'no location' | undefined {
    if (type !== 'delivery' || !zones) return undefined;
    const location = locationOf(dto.delivery_data ?? {});
    if (!location.point && !location.area) return 'no location';
    const modeMinimum = rules.minimums.delivery ?? null;
    return quoteZone(zones, location, modeMinimum, itemsSubtotal, 'delivery_data');
  }

  // R55: ready time.
  /**
   * The ready time an update sets, or null for none: the one sent, else on
   * acceptance of an order without one, the requested time of an order for
   * later or the moment of acceptance plus the menu's prep time. A sent time
   * equal to the current one changes nothing.
   */
  /**
   * A ready time the team sends is at most a week before or after now: 422
   * naming `estimated_ready_at` beyond (year 1 or 9999 is a slip of the
   * keyboard, not a plan), 400 for a date that does not exist.
   */
  // R75: a ready time within a week.
  checkReadyAtSent(sent: string | undefined): void {
    if (sent === undefined) return;
    const at = new Date(sent).getTime();
    const field = 'estimated_ready_at';
    if (Number.isNaN(at)) {
      throw ApiError.validation([{ field, message: `${sent} is not a date` }]);
    }
    const now = this.clock.nowMs();
    if (Math.abs(at - now) <= READY_AT_WINDOW_MS) return;
    const earliest = new Date(now - READY_AT_WINDOW_MS).toISOString();
    const latest = new Date(now + READY_AT_WINDOW_MS).toISOString();
    const message = `estimated_ready_at must be within 7 days of now, between ${earliest} and ${latest}.`;
    throw ApiError.unprocessable(message, [{ field, message, earliest, latest }]);
  }

  async readyTime(
    manager: EntityManager,
    order: OrderEntity,
    dto: UpdateOrderDto,
    nextStatus: string | undefined,
  ): Promise<Date | null> {
    const current = order.estimatedReadyAt ? new Date(order.estimatedReadyAt).getTime() : null;
    if (dto.estimated_ready_at !== undefined) {
      const sent = new Date(dto.estimated_ready_at);
      return sent.getTime() === current ? null : sent;
    }
    if (nextStatus !== 'accepted' || current !== null) return null;
    if (order.requestedTime) return new Date(order.requestedTime);
    const orderable = await this.entities.findOrderableMenu(order.menuUuid, [], manager);
    const prep = orderable ? readFulfilment(orderable.menu.extraData).prepTimeMinutes : 0;
    // R94: a busy kitchen's extra minutes go into every ready time it sets now.
    const busy = orderable
      ? (this.storefront.availabilityOf(orderable.business).extra_prep_minutes ?? 0)
      : 0;
    return new Date(this.clock.nowMs() + (prep + busy) * 60_000);
  }

  /** The slots of a local day still open for orders for later, with the places left. */
  async slotsOfDay(businessMetaKey: string, menuMetaKey: string, date: string): Promise<SlotDto[]> {
    const { business, menu } = await this.storefront.publicMenu(businessMetaKey, menuMetaKey);
    const rules = readFulfilment(menu.extraData);
    const slots = this.storefront.slotsOfDay(
      business,
      { ...rules.scheduling, prepTimeMinutes: rules.prepTimeMinutes },
      date,
    );
    if (!slots) {
      throw ApiError.validation(
        [{ field: 'date', message: 'date must be a real day, YYYY-MM-DD' }],
        `${date} is not a day.`,
      );
    }
    if (!rules.scheduling.enabled) return [];
    const cap = rules.scheduling.maxOrdersPerSlot;
    const taken =
      cap === null
        ? new Map<number, number>()
        : await this.slotCounts.counts(
            menu.uuid,
            slots.map((slot) => slot.start),
          );
    return slots
      .map((slot) => ({
        start: slot.startText,
        end: slot.endText,
        remaining: cap === null ? null : cap - (taken.get(slot.start.getTime()) ?? 0),
      }))
      .filter((slot) => slot.remaining === null || slot.remaining > 0);
  }

  /**
   * Takes the order's place in its slot inside the placement's transaction;
   * 422 "slot full" when the menu's cap is reached. The place is taken by
   * the transaction's last statement (see OrderSlotsRepository.take), and
   * the refusal thrown when that statement found the slot full. The place
   * is held until the order is cancelled or rejected, or the transaction
   * rolls back.
   */
  async holdSlot(manager: EntityManager, menu: EntityRecord, requestedTime: Date): Promise<void> {
    const cap = readFulfilment(menu.extraData).scheduling.maxOrdersPerSlot;
    await this.slotCounts.take(manager, menu.uuid, requestedTime, cap, async () => {
      throw ApiError.unprocessable('This time slot is full; choose another one.', [
        {
          field: 'requested_time',
          message: `slot full: it takes ${cap} orders`,
          slot_full: true,
        },
      ]);
    });
  }
}
