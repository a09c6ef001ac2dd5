import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Availability, EntityService, StorefrontService } from '../entity';
import { ApiError, ErrorDetail } from '../http/api-error';
import { CartItemDto } from './dto/place-order.dto';
import { OrderableItem, PricedLine, priceCart } from './domain/cart-pricing';
import { OrderPricing } from './domain/order-pricing';
import { isPaymentOffered, offeredProviders, PaymentProcessor } from '../payment';
import { FulfilmentPlan, HandOverBody, OrderFulfilment } from './order-fulfilment';
import { OrderPricer, PricedBody, pricingRefusalMessage } from './order-pricer';

/** What the guards read of an order body: placement's, or a quote's (amount and email optional). */
export type GuardedBody = HandOverBody &
  Omit<PricedBody, 'customer_email_address'> & {
    menu_uuid: string;
    payment_processor?: PaymentProcessor;
    cart_items: CartItemDto[];
    customer_email_address?: string;
  };

/** The guards' first read: the menu, its business and the cart's items, or nothing when not orderable. */
type MenuRead = ReturnType<EntityService['findOrderableMenu']>;
type OrderableMenu = NonNullable<Awaited<MenuRead>>;

/**
 * Placement refuses at the first guard that fails and takes its locks (the
 * discount code's row; the slot is taken after the guards, see holdSlot); a
 * quote runs the same guards, collects every problem and only reads.
 */
export type GuardMode = 'place' | 'quote';

/** What the guards have established so far, read by the guards after them and by placement. */
export interface PlacementState {
  readonly manager: EntityManager;
  readonly body: GuardedBody;
  readonly mode: GuardMode;
  readonly processor: PaymentProcessor;
  orderable: OrderableMenu;
  itemsByUuid: Map<string, OrderableItem>;
  lines: PricedLine[];
  handOver: FulfilmentPlan;
  price: OrderPricing | null;
  /** What the guards found that outlives a refusal (see GuardFindings). */
  readonly findings: GuardFindings;
  /** The team takes the order (their own route): the opening hours and the switch do not apply. */
  readonly takenByStaff: boolean;
}

/**
 * What the guards found, filled in as they run and read by the caller even
 * when a guard refused the order: whether the body's discount code is one
 * the business does not have (counted against guessing, see DiscountGuessLimit).
 */
export interface GuardFindings {
  unknownCode: boolean;
}

/** A guard's refusal: the 422 message, its details, and whether later guards can still run. */
interface Refusal {
  message: string;
  problems: ErrorDetail[];
  /** Later guards need what this one failed to establish: a quote stops here too. */
  final?: boolean;
}

interface PlacementGuard {
  /** The guard's name, as a reader of the list looks for it. */
  readonly name: string;
  check(state: PlacementState, services: GuardServices): Promise<Refusal | null> | Refusal | null;
}

interface GuardServices {
  storefront: StorefrontService;
  fulfilment: OrderFulfilment;
  pricer: OrderPricer;
}

// R94: a paused kitchen takes no order for now.
/** The refusal of an order for now while the kitchen is paused, naming when it resumes. */
function pausedRefusal(availability: Availability): Refusal | null {
  if (availability.mode !== 'paused') return null;
  const when = availability.until ? `; it resumes at ${availability.until}` : '';
  return {
    message: `The kitchen is paused and takes no orders for now${when}; orders for later are welcome.`,
    problems: [
      {
        field: 'menu_uuid',
        message: `the kitchen is paused${when}`,
        paused: true,
        resumes_at: availability.until,
      },
    ],
  };
}

/**
 * The placement's guards, in the order they run; when several would refuse an
 * order, the first of them answers. The menu itself (R43: a public menu of a
 * public business, 404 otherwise) is looked up before them.
 */
export const PLACEMENT_GUARDS: readonly PlacementGuard[] = [
  {
    // R36: a business outside its opening hours, or whose owner switched orders off, takes
    // none for now; an order for later is checked against its slot instead.
    name: 'openNow',
    check({ orderable, body, takenByStaff }, { storefront, fulfilment }) {
      // R107: the staff are there; a business closed to guests still takes their orders.
      if (takenByStaff) return null;
      const open = storefront.openStateOf(orderable.business);
      if (fulfilment.isForLater(body)) return null;
      const availability = storefront.availabilityOf(orderable.business);
      if (open.open) return pausedRefusal(availability);
      const when = open.nextChangeText ? `; it opens again at ${open.nextChangeText}` : '';
      const paused = availability.mode === 'paused';
      return {
        message: `The business is closed and takes no orders now${when}.`,
        problems: [
          {
            field: 'menu_uuid',
            message: `the business is closed${when}`,
            closed: true,
            opens_at: open.nextChangeText,
            ...(paused ? { paused: true, resumes_at: availability.until } : {}),
          },
        ],
      };
    },
  },
  {
    // R42: cash is always possible; any other method must be offered by the menu.
    name: 'paymentMethodOffered',
    check({ orderable, processor }) {
      const providers = orderable.menu.extraData.menu_checkout_payments_providers;
      if (isPaymentOffered(processor, providers)) return null;
      const offered = ['cash', ...[...offeredProviders(providers)].filter((p) => p !== 'cash')];
      return {
        message: `This menu does not offer payment by ${processor}.`,
        problems: [
          {
            field: 'payment_processor',
            message: `${processor} is not offered by this menu; offered: ${offered.join(', ')}`,
            offered,
          },
        ],
      };
    },
  },
  {
    // R44 and R35: 1 to 100 lines of public items of the menu, quantities within each
    // item's limits, options chosen within their groups; each line priced exactly.
    name: 'cartLines',
    check(state) {
      const pricing = priceCart(state.body.cart_items, state.itemsByUuid);
      if (pricing.ok) {
        state.lines = pricing.lines;
        return null;
      }
      return {
        message:
          pricing.problems.length === 1
            ? pricing.problems[0].message
            : `${pricing.problems.length} lines of the cart cannot be ordered.`,
        problems: pricing.problems,
        final: true,
      };
    },
  },
  {
    // R50, R51, R52, R53: the hand-over (sent or inferred) against the menu's modes, address, location,
    // delivery line and minimum; an order for later against the menu's scheduling and hours.
    name: 'handOverAndTime',
    check(state, { fulfilment }) {
      const checked = fulfilment.check(state.body, state.orderable, state.lines, state.itemsByUuid);
      state.handOver = {
        type: checked.type,
        requestedTime: checked.requestedTime,
        zone: checked.zone,
      };
      if (!checked.problems.length) return null;
      return { message: checked.problems[0].message, problems: checked.problems };
    },
  },
  {
    // R19, R58, R59: the price beyond the lines (pricing settings, discount code, tip) and the
    // body's amount compared with the total; every problem of the price is answered at once.
    name: 'priceAndAmount',
    async check(state, { pricer }) {
      const { body, orderable } = state;
      const outcome = await pricer.price(state.manager, {
        body: { ...body, customer_email_address: body.customer_email_address ?? '' },
        businessUuid: orderable.business.uuid,
        businessExtra: orderable.business.extraData,
        menuUuid: orderable.menu.uuid,
        lines: state.lines,
        itemsByUuid: state.itemsByUuid,
        fulfilmentType: state.handOver.type,
        zoneFee: state.handOver.zone?.fee ?? null,
        lock: state.mode === 'place',
      });
      state.price = outcome.pricing;
      state.findings.unknownCode = outcome.unknownCode;
      if (outcome.ok) return null;
      return {
        message: pricingRefusalMessage(outcome.problems, body.amount),
        problems: outcome.problems,
      };
    },
  },
];

/** Runs the placement's guards over an order body, for placement or for a quote. */
@Injectable()
export class PlacementGuards {
  constructor(
    private readonly entities: EntityService,
    private readonly storefront: StorefrontService,
    private readonly fulfilment: OrderFulfilment,
    private readonly pricer: OrderPricer,
  ) {}

  /**
   * R54: an order for later takes its place in its slot (422 when the slot
   * is full). Placement calls this once the order is written; the place is
   * taken by the statement that carries the transaction's COMMIT, so the
   * slot's row is locked only while that statement runs: orders for the
   * same slot wait for each other's last statement, not for each other's
   * whole placement. A refusal rolls the order back with the transaction.
   */
  async holdSlot(manager: EntityManager, state: PlacementState): Promise<void> {
    const { requestedTime } = state.handOver;
    if (requestedTime) await this.fulfilment.holdSlot(manager, state.orderable.menu, requestedTime);
  }

  /**
   * The guards' first read, in one statement: the menu, its business and the
   * cart's items (with the menu's delivery areas when the body may be a
   * delivery). `run` issues it itself unless handed it already issued, so
   * that a caller can send it in the same write as a statement of its own.
   */
  readMenu(manager: EntityManager, body: GuardedBody): MenuRead {
    return this.entities.findOrderableMenu(
      body.menu_uuid,
      body.cart_items.map((line) => line.uuid),
      manager,
      { deliveryAreas: this.fulfilment.mayBeDelivery(body) },
    );
  }

  /**
   * Placement: the established state, or the first guard's refusal thrown as 422.
   * Quote: the state as far as the guards got and every problem found.
   * Either way `findings` holds what the guards that ran found.
   */
  async run(
    manager: EntityManager,
    body: GuardedBody,
    mode: GuardMode,
    findings: GuardFindings = { unknownCode: false },
    takenByStaff = false,
    menuRead: MenuRead = this.readMenu(manager, body),
  ): Promise<{ state: PlacementState; problems: ErrorDetail[] }> {
    // R43: the menu is public and its business is public.
    const orderable = await menuRead;
    if (!orderable) {
      throw ApiError.notFound('The menu does not exist or is not open for orders.');
    }
    const state: PlacementState = {
      manager,
      body,
      mode,
      processor: body.payment_processor ?? 'cash',
      orderable,
      itemsByUuid: new Map(orderable.items.map((item) => [item.uuid, item])),
      lines: [],
      handOver: { type: 'dine_in', requestedTime: null, zone: null },
      price: null,
      findings,
      takenByStaff,
    };
    const services = {
      storefront: this.storefront,
      fulfilment: this.fulfilment,
      pricer: this.pricer,
    };
    const problems: ErrorDetail[] = [];
    for (const guard of PLACEMENT_GUARDS) {
      const refusal = await guard.check(state, services);
      if (!refusal) continue;
      if (mode === 'place') throw ApiError.unprocessable(refusal.message, refusal.problems);
      problems.push(...refusal.problems);
      if (refusal.final) break;
    }
    return { state, problems };
  }
}
