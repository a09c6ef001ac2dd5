/*
 * The pace module's front door: the acceptance deadline, busy and paused.
 */
export { PaceModule } from './pace.module';
export { AcceptanceDeadlineWorker } from './acceptance-deadline.worker';
