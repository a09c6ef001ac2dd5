import { Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller';
import { MetricsRepository } from './metrics.repository';
import { MetricsService } from './metrics.service';

/** GET /metrics for Prometheus. The HTTP timing is mounted by createApp (recordHttpMetrics). */
@Module({ controllers: [MetricsController], providers: [MetricsService, MetricsRepository] })
export class MetricsModule {}
