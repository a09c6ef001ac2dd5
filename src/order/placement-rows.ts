import { formatMoney } from '../common/money';
import { readMobileNumber } from '../common/phone-number';
import { ApiError } from '../http/api-error';
import { PricedLine } from './domain/cart-pricing';
import { PlaceOrderDto } from './dto/place-order.dto';
import { toOrderPrice } from './order-pricer';
import { NewOrder, NewOrderLine, newOrderUuid } from './order-placement.statement';
import { PlacementState } from './placement-guards';
import { TabEntity } from './tabs/tab.entity';

// What the placement writes, made from a body the guards accepted: pure, no database.

/** An optional text of the body as stored: null when absent or empty. */
export function optionalText(value: string | undefined): string | null {
  return value === undefined || value === '' ? null : value;
}

// R100: guest messages are opt-in; with consent the phone must be a mobile number, stored in E.164.
/**
 * With `message_consent`, the guest's phone as E.164, read as E.164 or in the
 * national form of the business's `country_of_registration`; 422 on
 * `customer_phone_number` when it is not a mobile number. Without consent,
 * null: the phone is kept as sent.
 */
export function consentedPhone(
  dto: PlaceOrderDto,
  business: Record<string, unknown> | null,
): string | null {
  if (!dto.message_consent) return null;
  const country = business?.country_of_registration;
  const phone = dto.customer_phone_number
    ? readMobileNumber(dto.customer_phone_number, typeof country === 'string' ? country : null)
    : null;
  if (!phone) {
    throw ApiError.unprocessable('Messages need a mobile number to reach.', [
      {
        field: 'customer_phone_number',
        message:
          'customer_phone_number must be a mobile number, in E.164 (+2348031234567) or in the national form of the business’s country, when message_consent is sent.',
      },
    ]);
  }
  return phone;
}

/** The order row of a body the guards accepted. */
export function newOrderOf(
  state: PlacementState,
  dto: PlaceOrderDto,
  currency: string | null,
  tab: TabEntity | null,
): NewOrder {
  const { menu, business } = state.orderable;
  const price = state.price!;
  const zone = state.handOver.zone;
  // An order that costs nothing is paid at placement; no checkout opens for it.
  const free = price.total.lte(0);
  return {
    uuid: newOrderUuid(),
    menuUuid: menu.uuid,
    businessUuid: business.uuid,
    ownerUuid: business.ownedBy,
    paymentProcessor: state.processor,
    amount: formatMoney(price.total),
    currency,
    customerEmailAddress: dto.customer_email_address,
    customerPhoneNumber: optionalText(dto.customer_phone_number),
    customerRequestedOrderEmailCopy: dto.customer_requested_order_email_copy ?? false,
    generalNote: optionalText(dto.general_note),
    deliveryData: dto.delivery_data ? { ...dto.delivery_data } : null,
    onpremiseData: dto.onpremise_data ? { ...dto.onpremise_data } : null,
    paymentState: free ? 'paid' : 'unpaid',
    // R109: a round is paid with its tab.
    paymentStatus: tab ? 'on_tab' : free ? 'paid' : 'unpaid',
    tabUuid: tab?.uuid ?? null,
    fulfilmentType: state.handOver.type,
    requestedTime: state.handOver.requestedTime,
    price: toOrderPrice(price),
    deliveryZone: zone && { key: zone.key, title: zone.title },
    deliveryEtaMinutes: zone?.etaMinutes ?? null,
  };
}

/** A priced line as the order keeps it: a snapshot of the item and its options. */
export function newLineOf(line: PricedLine): NewOrderLine {
  return {
    position: line.position,
    itemUuid: line.itemUuid,
    titleName: line.titleName === null ? null : line.titleName.slice(0, 255),
    category: line.category,
    unitPriceAmount: formatMoney(line.unitPrice),
    options: line.options.map((option) => ({ ...option })),
    quantity: line.quantity,
    lineTotal: formatMoney(line.lineTotal),
    itemNote: line.itemNote,
    allergens: line.allergens,
  };
}
