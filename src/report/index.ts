export { ReportModule } from './report.module';
