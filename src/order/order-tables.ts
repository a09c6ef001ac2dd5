import { queryBuilder, Table } from '../database/query-builder';
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
