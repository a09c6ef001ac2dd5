import { ErrorDetail } from '../../http/api-error';
import { formatMoney, MAX_AMOUNT, Money } from '../../common/money';
import type { DiscountKind } from '../discount.entity';

/** A code's settings as they are stored. */
export interface DiscountFields {
  code: string;
  kind: DiscountKind;
  value: string;
  minimumOrderAmount: string | null;
  startsAt: Date | null;
  endsAt: Date | null;
  maxRedemptions: number | null;
  maxRedemptionsPerEmail: number | null;
  menuUuids: string[] | null;
  enabled: boolean;
}

/** The body's fields, as sent (already of the right types). */
export interface DiscountBody {
  code?: string;
  kind?: DiscountKind;
  value?: string | number;
  minimum_order_amount?: string | number | null;
  starts_at?: string | null;
  ends_at?: string | null;
  max_redemptions?: number | null;
  max_redemptions_per_email?: number | null;
  menu_uuids?: string[] | null;
  enabled?: boolean;
}

function decimal(value: string | number): Money {
  return new Money(typeof value === 'number' ? String(value) : value.trim());
}

/**
 * The settings a body gives (over `current` for a change), or the faults that
 * refuse it: a percent value from 0 to 100 with at most 4 decimals; a fixed
 * value a positive amount with at most 2 decimals; a minimum order amount
 * with at most 2 decimals; `starts_at` before `ends_at`.
 */
export function discountFields(
  body: DiscountBody,
  current: DiscountFields | null,
): { fields: DiscountFields; faults: ErrorDetail[] } {
  const faults: ErrorDetail[] = [];
  const pick = <K extends keyof DiscountBody, T>(
    key: K,
    read: (value: NonNullable<DiscountBody[K]>) => T,
    fallback: T,
  ): T => {
    const value = body[key];
    if (value === undefined) return fallback;
    if (value === null) return null as T;
    return read(value as NonNullable<DiscountBody[K]>);
  };
  const kind = body.kind ?? current?.kind ?? 'percent';
  const kindChanged = current !== null && body.kind !== undefined && body.kind !== current.kind;
  const valueInput = body.value ?? (kindChanged ? undefined : current?.value);
  let value = '';
  if (valueInput === undefined) {
    faults.push({ field: 'value', message: 'value is required.' });
  } else {
    const parsed = decimal(valueInput);
    if (kind === 'percent' && (parsed.gt(100) || parsed.decimalPlaces() > 4)) {
      faults.push({
        field: 'value',
        message: 'value of a percent code must be from 0 to 100 with at most 4 decimals.',
      });
    } else if (
      kind === 'fixed' &&
      (parsed.lte(0) || parsed.decimalPlaces() > 2 || parsed.gt(MAX_AMOUNT))
    ) {
      faults.push({
        field: 'value',
        message: 'value of a fixed code must be a positive amount with at most 2 decimals.',
      });
    }
    value = parsed.toString();
  }
  const minimumOrderAmount = pick(
    'minimum_order_amount',
    (raw) => {
      const parsed = decimal(raw);
      if (parsed.decimalPlaces() > 2 || parsed.gt(MAX_AMOUNT)) {
        faults.push({
          field: 'minimum_order_amount',
          message: 'minimum_order_amount must be an amount with at most 2 decimals.',
        });
      }
      return formatMoney(parsed);
    },
    current?.minimumOrderAmount ?? null,
  );
  const startsAt = pick('starts_at', (raw) => new Date(raw), current?.startsAt ?? null);
  const endsAt = pick('ends_at', (raw) => new Date(raw), current?.endsAt ?? null);
  if (startsAt && endsAt && startsAt.getTime() >= endsAt.getTime()) {
    faults.push({
      field: body.ends_at !== undefined ? 'ends_at' : 'starts_at',
      message: 'starts_at must be before ends_at.',
    });
  }
  return {
    faults,
    fields: {
      code: (body.code ?? current?.code ?? '').toUpperCase(),
      kind,
      value,
      minimumOrderAmount,
      startsAt,
      endsAt,
      maxRedemptions: pick('max_redemptions', (n) => n, current?.maxRedemptions ?? null),
      maxRedemptionsPerEmail: pick(
        'max_redemptions_per_email',
        (n) => n,
        current?.maxRedemptionsPerEmail ?? null,
      ),
      menuUuids: pick(
        'menu_uuids',
        (list) => [...new Set(list.map((id) => id.toLowerCase()))],
        current?.menuUuids ?? null,
      ),
      enabled: body.enabled ?? current?.enabled ?? true,
    },
  };
}

/** What the order offers the code. */
export interface RedemptionContext {
  menuUuid: string;
  itemsSubtotal: Money;
  now: Date;
  /** Redemptions so far: in all, and by the order's email address. */
  redeemed: number;
  redeemedByEmail: number;
}

/**
 * Why the code does not apply to this order, or null when it does: it must
 * be enabled, within its dates, for this menu, reached by the items'
 * subtotal, and have a redemption left in all and for this email address.
 */
export function whyNotApplicable(
  discount: DiscountFields & { deletedAt: Date | null },
  context: RedemptionContext,
): string | null {
  const code = discount.code;
  if (discount.deletedAt) return `The code ${code} is not valid.`;
  if (!discount.enabled) return `The code ${code} is not active.`;
  if (discount.startsAt && context.now < discount.startsAt) {
    return `The code ${code} is not valid before ${discount.startsAt.toISOString()}.`;
  }
  if (discount.endsAt && context.now >= discount.endsAt) {
    return `The code ${code} expired at ${discount.endsAt.toISOString()}.`;
  }
  if (discount.menuUuids && !discount.menuUuids.includes(context.menuUuid.toLowerCase())) {
    return `The code ${code} does not apply to this menu.`;
  }
  if (discount.minimumOrderAmount && context.itemsSubtotal.lt(discount.minimumOrderAmount)) {
    return `The code ${code} needs items worth at least ${discount.minimumOrderAmount}.`;
  }
  if (discount.maxRedemptions !== null && context.redeemed >= discount.maxRedemptions) {
    return `The code ${code} has been used as many times as it may be.`;
  }
  if (
    discount.maxRedemptionsPerEmail !== null &&
    context.redeemedByEmail >= discount.maxRedemptionsPerEmail
  ) {
    return `The code ${code} has been used as many times as it may be with this email address.`;
  }
  return null;
}
