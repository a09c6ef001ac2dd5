import { Module } from '@nestjs/common';
import { EntityModule } from '../entity';
import { OrderModule } from '../order';
import { TeamModule } from '../team';
import { KitchenDisplayController } from './display/kitchen-display.controller';
import { KitchenBusinessController, KitchenTicketController } from './kitchen.controller';
import { KitchenRepository } from './kitchen.repository';
import { KitchenService } from './kitchen.service';
import { KitchenTickets } from './kitchen-tickets';
import { KitchenStreams } from './realtime/kitchen-streams';
import { TicketWritesRepository } from './ticket-writes.repository';

/**
 * The kitchen: tickets per station written with an order's acceptance
 * (heard through the order's change event), their routes and stream, and
 * dockets for receipt printers. The order module knows nothing of it.
 */
@Module({
  imports: [EntityModule, OrderModule, TeamModule],
  controllers: [KitchenBusinessController, KitchenTicketController, KitchenDisplayController],
  providers: [
    KitchenRepository,
    TicketWritesRepository,
    KitchenService,
    KitchenTickets,
    KitchenStreams,
  ],
})
export class KitchenModule {}
