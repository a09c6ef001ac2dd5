import { PaymentChannelsRepository } from './payment-channels.repository';
import { Module } from '@nestjs/common';
import { TeamModule } from '../team';
import { ExportRepository } from './export.repository';
import { ExportService } from './export.service';
import { ReportController } from './report.controller';
import { ReportRepository } from './report.repository';
import { ReportService } from './report.service';

/** Sales and items reports of a business, and the CSV export of its orders. */
@Module({
  imports: [TeamModule],
  controllers: [ReportController],
  providers: [
    ReportRepository,
    PaymentChannelsRepository,
    ReportService,
    ExportRepository,
    ExportService,
  ],
})
export class ReportModule {}
