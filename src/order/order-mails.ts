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

/**
 * The words of the guest's mails, in each language that has a template
 * (English, French); the owner's alert is in English.
 */
const EN = {
  card: 'card (Paystack)',
  bankTransfer: 'bank transfer',
  cash: 'cash',
  note: 'note',
  delivery: 'Delivery',
  onPremises: 'On the premises',
  subtotal: 'Subtotal',
  discount: 'Discount',
  serviceCharge: 'Service charge',
  tax: 'Tax',
  taxIncluded: ' (included in the prices)',
  tip: 'Tip',
  handOver: { dine_in: 'Dine-in', pickup: 'Pickup', delivery: 'Delivery' } as Record<
    string,
    string
  >,
  fulfilment: 'Fulfilment',
  requestedFor: 'Requested for',
  readyAt: 'Estimated ready at',
  reference: 'Order reference',
  placed: 'Placed',
  total: 'Total',
  payment: 'Payment',
  email: 'Email',
  phone: 'Phone',
  address: 'Address',
  copySubject: (reference: string, name: string) => `Your order ${reference} at ${name}`,
  thanks: (name: string) => `Thank you for your order at ${name}.`,
  yourNote: 'Your note',
  questions: (name: string) => `Questions about this order? Contact ${name}`,
  colon: ':',
};

type Words = typeof EN;

const FR: Words = {
  card: 'carte (Paystack)',
  bankTransfer: 'virement bancaire',
  cash: 'espèces',
  note: 'note',
  delivery: 'Livraison',
  onPremises: 'Sur place',
  subtotal: 'Sous-total',
  discount: 'Remise',
  serviceCharge: 'Service',
  tax: 'Taxe',
  taxIncluded: ' (comprise dans les prix)',
  tip: 'Pourboire',
  handOver: { dine_in: 'Sur place', pickup: 'À emporter', delivery: 'Livraison' },
  fulfilment: 'Retrait',
  requestedFor: 'Demandée pour',
  readyAt: 'Prête vers',
  reference: 'Référence de la commande',
  placed: 'Passée le',
  total: 'Total',
  payment: 'Paiement',
  email: 'E-mail',
  phone: 'Téléphone',
  address: 'Adresse',
  copySubject: (reference, name) => `Votre commande ${reference} chez ${name}`,
  thanks: (name) => `Merci pour votre commande chez ${name}.`,
  yourNote: 'Votre note',
  questions: (name) => `Une question sur cette commande ? Contactez ${name}`,
  colon: ' :',
};

// R118: the guest's mails are in the order's language when it has a template.
function wordsFor(language: string | null | undefined): Words {
  const base = language?.split('-')[0].toLowerCase();
  return base === 'fr' ? FR : EN;
}

function money(order: OrderResponseDto, amount: string): string {
  return order.currency ? `${amount} ${order.currency}` : amount;
}

function paymentLabel(processor: string, w: Words): string {
  switch (processor) {
    case 'paystack':
      return w.card;
    case 'bank_transfer':
      return w.bankTransfer;
    default:
      return w.cash;
  }
}

function lineList(order: OrderResponseDto, w: Words): string[] {
  return order.items.map((line) => {
    const chosen = (line.options ?? []).map((option) => option.option_title ?? option.option);
    const title = `${line.title_name ?? line.item_uuid}${chosen.length ? ` (${chosen.join(', ')})` : ''}`;
    const note = line.item_note ? `\n      ${w.note}: ${line.item_note}` : '';
    return `  ${line.quantity} × ${title} @ ${money(order, line.unit_price_amount)} = ${money(order, line.line_total)}${note}`;
  });
}

function whereLines(order: OrderResponseDto, w: Words): string[] {
  const lines: string[] = [];
  const delivery = object(order.delivery_data);
  const onpremise = object(order.onpremise_data);
  const address = text(delivery.delivery_address);
  const identifier = text(delivery.delivery_identifier);
  if (address || identifier) {
    lines.push(`${w.delivery}: ${[identifier, address].filter(Boolean).join(', ')}`);
  }
  const place = text(onpremise.customer_onpremise_location);
  if (place && place !== '_') {
    const type = text(onpremise.customer_onpremise_location_type);
    lines.push(`${w.onPremises}: ${type ? `${type} ` : ''}${place}`);
  }
  return lines;
}

/**
 * The price in lines, when there is more to it than items and delivery:
 * subtotal, delivery, discount, service charge, tax (added or included) and tip.
 */
function pricingLines(order: OrderResponseDto, w: Words): string[] {
  const p = order.pricing;
  if (!p) return [];
  const zero = (amount: string) => Number(amount) === 0;
  if ([p.discount, p.service_charge, p.tax, p.tip].every(zero)) return [];
  return [
    `${w.subtotal}: ${money(order, p.items_subtotal)}`,
    ...(zero(p.delivery_fee) ? [] : [`${w.delivery}: ${money(order, p.delivery_fee)}`]),
    ...(zero(p.discount)
      ? []
      : [
          `${w.discount}${p.discount_code ? ` (${p.discount_code})` : ''}: -${money(order, p.discount)}`,
        ]),
    ...(zero(p.service_charge) ? [] : [`${w.serviceCharge}: ${money(order, p.service_charge)}`]),
    ...(zero(p.tax)
      ? []
      : [`${w.tax}${p.tax_inclusive ? w.taxIncluded : ''}: ${money(order, p.tax)}`]),
    ...(zero(p.tip) ? [] : [`${w.tip}: ${money(order, p.tip)}`]),
  ];
}

/** How the order is handed over, the slot of an order for later and the ready time when known. */
function whenLines(order: OrderResponseDto, w: Words): string[] {
  return [
    `${w.fulfilment}: ${w.handOver[order.fulfilment_type] ?? order.fulfilment_type}`,
    ...(order.requested_time ? [`${w.requestedFor}: ${order.requested_time}`] : []),
    ...(order.estimated_ready_at ? [`${w.readyAt}: ${order.estimated_ready_at}`] : []),
  ];
}

/** What both order mails show: reference, time, lines, price lines, total, payment, when and where. */
function orderSummaryLines(order: OrderResponseDto, w: Words = EN): string[] {
  return [
    `${w.reference}: ${order.order_reference}`,
    `${w.placed}: ${order.created_at}`,
    '',
    ...lineList(order, w),
    '',
    ...pricingLines(order, w),
    `${w.total}: ${money(order, order.amount)}`,
    `${w.payment}: ${paymentLabel(order.payment_processor, w)}`,
    ...whenLines(order, w),
    ...whereLines(order, w),
  ];
}
/** The customer's copy, if asked for: lines, total, reference, the business's name and contact. */
export function customerCopyMail(order: OrderResponseDto, business: BusinessContact): MailMessage {
  const w = wordsFor(order.language);
  const contact = [
    business.email && `${w.email}: ${business.email}`,
    business.phone && `${w.phone}: ${business.phone}`,
    business.address && `${w.address}: ${business.address}`,
  ].filter((line): line is string => Boolean(line));
  return {
    to: order.customer_email_address,
    subject: oneLine(w.copySubject(order.order_reference, business.name)),
    text: [
      w.thanks(business.name),
      '',
      ...orderSummaryLines(order, w),
      ...(order.general_note ? [`${w.yourNote}: ${order.general_note}`] : []),
      '',
      `${w.questions(business.name)}${contact.length ? w.colon : '.'}`,
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
