import { Module } from '@nestjs/common';
import { TeamModule } from '../team';
import { ReportController } from './report.controller';
import { ReportRepository } from './report.repository';
import { ReportService } from './report.service';

/** Sales and items reports of a business. */
@Module({
  imports: [TeamModule],
  controllers: [ReportController],
  providers: [ReportRepository, ReportService],
})
export class ReportModule {}
