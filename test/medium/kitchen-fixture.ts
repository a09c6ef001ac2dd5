import { AccountModule } from '../../src/account';
import { AuthModule } from '../../src/auth/auth.module';
import { EventBus } from '../../src/database/event-bus';
import { KitchenModule } from '../../src/kitchen';
import { KitchenRepository } from '../../src/kitchen/kitchen.repository';
import { TicketWritesRepository } from '../../src/kitchen/ticket-writes.repository';
import { OrderRepository, OrderStatusMoves } from '../../src/order';
import { createMediumContext, MediumContext } from '../support/medium';
import { MediumEntity, MediumUser, newEntity, newUser } from '../support/medium-factory';
import { GRILL_AND_BAR } from '../support/medium-kitchen';
import { newOrderFields, orderLine } from '../support/medium-orders';

/** The kitchen module on a real database, an owner and a business with a grill and a bar. */
export interface KitchenFixture {
  ctx: MediumContext;
  kitchen: KitchenRepository;
  writes: TicketWritesRepository;
  orders: OrderRepository;
  moves: OrderStatusMoves;
  bus: EventBus;
  owner: MediumUser;
  business: MediumEntity;
  /** A pending order of the business: two food lines (grill) and one drink (bar). */
  placeOrder(businessUuid?: string): ReturnType<typeof insertOrder>;
  /** The owner's acceptance of the order, under its lock. */
  accept(orderUuid: string): ReturnType<OrderStatusMoves['move']>;
}

async function insertOrder(ctx: MediumContext, ownerUuid: string, businessUuid: string) {
  const orders = ctx.get(OrderRepository);
  const placed = await orders.insertPlacedOrder(
    ctx.dataSource.manager,
    newOrderFields(ownerUuid, businessUuid),
    [orderLine(0), orderLine(1), { ...orderLine(2), category: 'Drinks' }],
    'guest',
  );
  return placed.order;
}

export async function startKitchenFixture(): Promise<KitchenFixture> {
  // The composition root's auth: the order module imports the account module, which needs it.
  const ctx = await createMediumContext({
    imports: [AuthModule.forRoot(AccountModule), KitchenModule],
  });
  try {
    const orders = ctx.get(OrderRepository);
    const moves = ctx.get(OrderStatusMoves);
    const bus = ctx.get(EventBus);
    const owner = await newUser(ctx);
    const business = await newEntity(ctx, 'business', owner.uuid, {
      extraData: { kitchen: GRILL_AND_BAR },
    });
    return {
      ctx,
      kitchen: ctx.get(KitchenRepository),
      writes: ctx.get(TicketWritesRepository),
      orders,
      moves,
      bus,
      owner,
      business,
      placeOrder: (businessUuid = business.uuid) => insertOrder(ctx, owner.uuid, businessUuid),
      accept: (orderUuid) =>
        bus.transaction(async (tx) => {
          const order = (await orders.findForUpdate(tx.manager, orderUuid))!;
          return moves.move(tx, order, 'accepted', { actor: 'owner', userUuid: owner.uuid });
        }),
    };
  } catch (error) {
    await ctx.close();
    throw error;
  }
}
