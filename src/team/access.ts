/**
 * What each role may do on the one business it belongs to. The owner is the
 * user in the business's `owned_by`; managers and staff are members. This
 * table is the only place roles meet actions (docs/teams.md mirrors it).
 */
export const BUSINESS_ACTIONS = [
  /** Read the business, its menus and items, trashed and disabled ones included. */
  'business.read',
  /** Create, update, trash and restore menus and items. */
  'menu.write',
  /** Only `extra_data.available` of items and their options, through PUT of the item. */
  'item.availability',
  /** Update the business record itself (profile, opening hours, payment settings). */
  'business.update',
  /** Only `extra_data.accepting_orders` of the business record. */
  'business.accepting_orders',
  /** The kitchen's switch: open, busy or paused (the availability route). */
  'business.availability',
  /** Trash or restore the business. */
  'business.trash',
  /** The inbox, one order, the order stream and the notifications of its orders. */
  'order.read',
  /** Change an order's status and owner note. */
  'order.update',
  /** Set an order's payment status by hand. */
  'payment.manual',
  /** Refund an order. */
  'payment.refund',
  /** Reports and exports. */
  'report.read',
  /** Discount codes. */
  'discount.manage',
  /** List the members and open invitations. */
  'members.read',
  /** Invite, change a role, remove a member. */
  'members.manage',
  /** Outbound webhooks of the business. */
  'webhook.manage',
  /** The log of messages sent to guests by WhatsApp and SMS. */
  'messages.read',
  /** Take an order, open and split a tab, mark a share paid in cash or by transfer. */
  'order.take',
  /** Close a tab with money due. */
  'tab.close_due',
] as const;

export type BusinessAction = (typeof BUSINESS_ACTIONS)[number];

export type BusinessRole = 'owner' | 'manager' | 'staff';

// R47: roles.
export const ROLE_ACTIONS: Readonly<Record<BusinessRole, ReadonlySet<BusinessAction>>> = {
  owner: new Set(BUSINESS_ACTIONS),
  manager: new Set<BusinessAction>([
    'business.read',
    'menu.write',
    'item.availability',
    'business.accepting_orders',
    'business.availability',
    'order.read',
    'order.update',
    'payment.manual',
    'payment.refund',
    'report.read',
    'discount.manage',
    'members.read',
    'messages.read',
    'order.take',
    'tab.close_due',
  ]),
  staff: new Set<BusinessAction>([
    'business.read',
    'item.availability',
    'business.availability',
    'order.read',
    'order.update',
    'order.take',
  ]),
};

export function roleAllows(role: BusinessRole | undefined, action: BusinessAction): boolean {
  return role !== undefined && ROLE_ACTIONS[role].has(action);
}
