import type { MailMessage } from '../outbox/outbox.service';
import { OrderResponseDto } from './dto/order-response.dto';

/** What the mails say about the business, read from its record and the menu's contact_info. */
export interface BusinessContact {
  name: string;
  email: string | null;
  phone: string | null;
  address: string | null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function object(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** The menu's contact_info first, the business's own contact fields where it is silent. */
export function businessContact(
  business: {
    titleName: string | null;
    metaKey: string | null;
    extraData: Record<string, unknown>;
  },
  menu: { extraData: Record<string, unknown> },
): BusinessContact {
  const contactInfo = object(menu.extraData.contact_info);
  return {
    name: text(business.titleName) ?? text(business.metaKey) ?? 'the business',
    email: text(contactInfo.email_address) ?? text(business.extraData.contact_email),
    phone: text(contactInfo.mobile_number),
    address: text(contactInfo.address) ?? text(business.extraData.business_address),
  };
}

/** Header values must stay on one line. */
function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, ' ').trim();
}

function money(order: OrderResponseDto, amount: string): string {
  return order.currency ? `${amount} ${order.currency}` : amount;
}

function paymentLabel(processor: string): string {
  switch (processor) {
    case 'paystack':
      return 'card (Paystack)';
    case 'bank_transfer':
      return 'bank transfer';
    default:
      return 'cash';
  }
}

function lineList(order: OrderResponseDto): string[] {
  return order.items.map((line) => {
    const chosen = (line.options ?? []).map((option) => option.option_title ?? option.option);
    const title = `${line.title_name ?? line.item_uuid}${chosen.length ? ` (${chosen.join(', ')})` : ''}`;
    const note = line.item_note ? `\n      note: ${line.item_note}` : '';
    return `  ${line.quantity} × ${title} @ ${money(order, line.unit_price_amount)} = ${money(order, line.line_total)}${note}`;
  });
}

function whereLines(order: OrderResponseDto): string[] {
  const lines: string[] = [];
  const delivery = object(order.delivery_data);
  const onpremise = object(order.onpremise_data);
  const address = text(delivery.delivery_address);
  const identifier = text(delivery.delivery_identifier);
  if (address || identifier) {
    lines.push(`Delivery: ${[identifier, address].filter(Boolean).join(', ')}`);
  }
  const place = text(onpremise.customer_onpremise_location);
  if (place && place !== '_') {
    const type = text(onpremise.customer_onpremise_location_type);
    lines.push(`On the premises: ${type ? `${type} ` : ''}${place}`);
  }
  return lines;
}

/**
 * The price in lines, when there is more to it than items and delivery:
 * subtotal, delivery, discount, service charge, tax (added or included) and tip.
 */
function pricingLines(order: OrderResponseDto): string[] {
  const p = order.pricing;
  if (!p) return [];
  const zero = (amount: string) => Number(amount) === 0;
  if ([p.discount, p.service_charge, p.tax, p.tip].every(zero)) return [];
  return [
    `Subtotal: ${money(order, p.items_subtotal)}`,
    ...(zero(p.delivery_fee) ? [] : [`Delivery: ${money(order, p.delivery_fee)}`]),
    ...(zero(p.discount)
      ? []
      : [
          `Discount${p.discount_code ? ` (${p.discount_code})` : ''}: -${money(order, p.discount)}`,
        ]),
    ...(zero(p.service_charge) ? [] : [`Service charge: ${money(order, p.service_charge)}`]),
    ...(zero(p.tax)
      ? []
      : [`Tax${p.tax_inclusive ? ' (included in the prices)' : ''}: ${money(order, p.tax)}`]),
    ...(zero(p.tip) ? [] : [`Tip: ${money(order, p.tip)}`]),
  ];
}

const HAND_OVER: Record<string, string> = {
  dine_in: 'Dine-in',
  pickup: 'Pickup',
  delivery: 'Delivery',
};

/** How the order is handed over, the slot of an order for later and the ready time when known. */
function whenLines(order: OrderResponseDto): string[] {
  return [
    `Fulfilment: ${HAND_OVER[order.fulfilment_type] ?? order.fulfilment_type}`,
    ...(order.requested_time ? [`Requested for: ${order.requested_time}`] : []),
    ...(order.estimated_ready_at ? [`Estimated ready at: ${order.estimated_ready_at}`] : []),
  ];
}

/** What both order mails show: reference, time, lines, price lines, total, payment, when and where. */
function orderSummaryLines(order: OrderResponseDto): string[] {
  return [
    `Order reference: ${order.order_reference}`,
    `Placed: ${order.created_at}`,
    '',
    ...lineList(order),
    '',
    ...pricingLines(order),
    `Total: ${money(order, order.amount)}`,
    `Payment: ${paymentLabel(order.payment_processor)}`,
    ...whenLines(order),
    ...whereLines(order),
  ];
}
/** The customer's copy, if asked for: lines, total, reference, the business's name and contact. */
export function customerCopyMail(order: OrderResponseDto, business: BusinessContact): MailMessage {
  const contact = [
    business.email && `Email: ${business.email}`,
    business.phone && `Phone: ${business.phone}`,
    business.address && `Address: ${business.address}`,
  ].filter((line): line is string => Boolean(line));
  return {
    to: order.customer_email_address,
    subject: oneLine(`Your order ${order.order_reference} at ${business.name}`),
    text: [
      `Thank you for your order at ${business.name}.`,
      '',
      ...orderSummaryLines(order),
      ...(order.general_note ? [`Your note: ${order.general_note}`] : []),
      '',
      `Questions about this order? Contact ${business.name}${contact.length ? ':' : '.'}`,
      ...contact.map((line) => `  ${line}`),
    ].join('\n'),
  };
}

/** The owner's alert that a new order arrived; the server sends it, clients need not. */
export function ownerAlertMail(
  order: OrderResponseDto,
  business: BusinessContact,
  ownerEmail: string,
): MailMessage {
  return {
    to: ownerEmail,
    subject: oneLine(`New order ${order.order_reference} for ${business.name}`),
    text: [
      `${business.name} has a new order.`,
      '',
      ...orderSummaryLines(order),
      `Customer email: ${order.customer_email_address}`,
      ...(order.customer_phone_number ? [`Customer phone: ${order.customer_phone_number}`] : []),
      ...(order.general_note ? [`Customer note: ${order.general_note}`] : []),
    ].join('\n'),
  };
}
