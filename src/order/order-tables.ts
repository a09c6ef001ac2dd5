import { jsonBuildObject } from 'kysely/helpers/postgres';
import { queryBuilder, sql, Table } from '../database/query-builder';
import { OrderEntity, OrderEventEntity, OrderLineEntity } from './entities';

/**
 * The order module's tables as the query builder sees them (the columns a
 * write may leave to their defaults named in each Table), shared by its
 * repositories and statements.
 */
export const db = queryBuilder<{
  orders: Table<
    OrderEntity,
    | 'orderReference'
    | 'status'
    | 'paymentStatus'
    | 'paymentState'
    | 'amountPaid'
    | 'amountRefunded'
    | 'ownerNote'
    | 'estimatedReadyAt'
    | 'channel'
    | 'createdBy'
    | 'tabUuid'
    | 'createdAt'
    | 'updatedAt'
  >;
  orderLines: Table<Omit<OrderLineEntity, 'order'>, 'uuid'>;
  orderEvents: Table<Omit<OrderEventEntity, 'order'>, 'id' | 'createdAt' | 'reason'>;
}>();

/** History entries as a statement answers them in JSON: ids and times as text. */
export type OrderEventJson = Omit<OrderEventEntity, 'order' | 'createdAt'> & { createdAt: string };

/**
 * The history entries a statement inserted, in its `e` (rows of
 * order_events), as one JSON array oldest first (null when none): the
 * statement answers them with what it wrote, in the same round trip.
 */
export function insertedEventsJson() {
  const column = (name: string) => sql.ref(`e.${name}`);
  return sql<OrderEventJson[] | null>`json_agg(${jsonBuildObject({
    id: sql<string>`${column('id')}::text`,
    orderUuid: column('orderUuid'),
    field: column('field'),
    fromValue: column('fromValue'),
    toValue: column('toValue'),
    actorUuid: column('actorUuid'),
    actor: column('actor'),
    reason: column('reason'),
    createdAt: column('createdAt'),
  })} ORDER BY ${column('id')})`;
}

/** The entries of insertedEventsJson as entities. */
export function eventsFromJson(events: readonly OrderEventJson[] | null): OrderEventEntity[] {
  return (events ?? []).map(
    (event) => ({ ...event, createdAt: new Date(event.createdAt) }) as OrderEventEntity,
  );
}
