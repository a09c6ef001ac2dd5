import { PreparedRun, preparedQuery } from '../database/prepared-query';
import { rowsTable, sql } from '../database/query-builder';
import { OrderEntity, OrderEventEntity } from './entities';
import { OrderActor, OrderEventField } from './entities/order-event.entity';
import { db, eventsFromJson, insertedEventsJson } from './order-tables';

/*
 * The statements that change an order: its columns (or the read model of
 * its payments) and the history entries of the change, in one statement
 * that answers both as stored.
 */
export interface NewOrderEvent {
  field: OrderEventField;
  fromValue: string | null;
  toValue: string | null;
  actorUuid: string | null;
  actor: OrderActor;
  /** Why the service made the change; absent for a person's. */
  reason?: string | null;
}

/** The columns an order update may change: not the read model of its payments, which follows them. */
export type OrderChanges = Partial<Pick<OrderEntity, 'status' | 'ownerNote' | 'estimatedReadyAt'>>;

/** The read model of an order's payments. */
export type OrderPaymentModel = Pick<
  OrderEntity,
  'paymentState' | 'paymentStatus' | 'amountPaid' | 'amountRefunded'
>;

/** The columns of history entries written with a change of their order, each numbered `n` in the order given. */
const EVENT_TYPES = {
  n: 'int',
  field: 'text',
  fromValue: 'text',
  toValue: 'text',
  actorUuid: 'uuid',
  actor: 'text',
  reason: 'text',
} as const;

type OrderRowChanges = OrderChanges | OrderPaymentModel;

/** A new history entry as a row of its statement: `n` orders them, `reason` is null for none. */
type EventRow = Required<NewOrderEvent> & { n: number };

/**
 * What an order update is sent with: `asPlaced` (present or not: it is the
 * statement's shape) makes it check that the order has not been written
 * since the statement that placed it (`updated_at` is still `created_at`,
 * which only that statement wrote, both `now()` of its transaction). Where
 * it has been, the statement fails with SQLSTATE SV001
 * (`checks_before_commit`), its transaction rolls back, and the event bus
 * runs it again.
 */
interface OrderUpdateArgs {
  uuid: string;
  set: OrderRowChanges;
  asPlaced?: true;
}

/** The order's columns in `set` changed, and its row answered as stored. */
function orderUpdate({ uuid, set, asPlaced }: OrderUpdateArgs) {
  const update = db
    .updateTable('orders')
    .set({ ...set, updatedAt: sql<Date>`now()` })
    .where('uuid', '=', uuid);
  // Checked on the row the update would write, after any concurrent writer committed.
  return (
    asPlaced === undefined
      ? update
      : update.where((eb) =>
          eb.fn<boolean>('checks_before_commit', [eb('updatedAt', '=', eb.ref('createdAt'))]),
        )
  ).returningAll();
}

/** An order's change alone; built once for each set of columns changed. */
const updateOrderRow = preparedQuery((args: OrderUpdateArgs) => orderUpdate(args), {
  expand: ['set'],
});

/** An order's change and its new history entries (`rows`, in the order given) in one statement. */
const updateOrderWithEvents = preparedQuery(
  ({ rows, ...args }: OrderUpdateArgs & { rows: EventRow[] }) =>
    db
      .with('u', () => orderUpdate(args))
      .with('e', (qb) =>
        qb
          .insertInto('orderEvents')
          .columns(['orderUuid', 'field', 'fromValue', 'toValue', 'actorUuid', 'actor', 'reason'])
          .expression((eb) =>
            eb
              .selectFrom(['u', rowsTable(rows, EVENT_TYPES, 'ev')])
              .select([
                'u.uuid',
                'ev.field',
                'ev.fromValue',
                'ev.toValue',
                'ev.actorUuid',
                'ev.actor',
                'ev.reason',
              ])
              // Ids in the order given.
              .orderBy('ev.n'),
          )
          .returningAll(),
      )
      .selectFrom('u')
      .selectAll('u')
      .select((eb) => eb.selectFrom('e').select(insertedEventsJson().as('events')).as('written')),
  { expand: ['set'] },
);

/** An order as a write stored it, with the history entries it added. */
export interface WrittenOrder {
  order: OrderEntity;
  events: OrderEventEntity[];
}

/** The order's change and its new history entries (none: the change alone) as one statement. */
export function withHistory(
  uuid: string,
  set: OrderRowChanges,
  events: readonly NewOrderEvent[],
  asPlaced = false,
): PreparedRun<Record<string, unknown>> {
  const args: OrderUpdateArgs = asPlaced ? { uuid, set, asPlaced } : { uuid, set };
  if (events.length === 0) return updateOrderRow(args);
  const rows = events.map((event, i) => ({
    n: i + 1,
    field: event.field,
    fromValue: event.fromValue,
    toValue: event.toValue,
    actorUuid: event.actorUuid,
    actor: event.actor,
    reason: event.reason ?? null,
  }));
  return updateOrderWithEvents({ ...args, rows });
}

/** What withHistory's row says: the order, and its new history entries (in `written`, when any). */
export function writtenOf(row: Record<string, unknown> | undefined): WrittenOrder | undefined {
  if (!row) return undefined;
  const { written, ...order } = row as Record<string, unknown> & { written?: unknown };
  return {
    order: order as unknown as OrderEntity,
    events: written === undefined ? [] : eventsFromJson(written as never),
  };
}
