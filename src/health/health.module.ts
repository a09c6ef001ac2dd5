import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { HealthRepository } from './health.repository';
import { ServiceIndexController } from './service-index.controller';

@Module({
  controllers: [ServiceIndexController, HealthController],
  providers: [HealthRepository],
})
export class HealthModule {}
