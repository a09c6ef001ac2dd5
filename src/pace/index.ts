/*
 * The pace module's front door: the acceptance deadline, busy and paused.
 */
export { PaceModule } from './pace.module';
export { AcceptanceDeadlineWorker } from './acceptance-deadline.worker';
export type { AvailabilityChanged } from './availability-events';
import './availability-events';
import { AvailabilityChangeEntity } from './availability-change.entity';

export { AvailabilityChangeEntity };
/** The pace module's tables, registered with the database by the composition root. */
export const PACE_ENTITIES = [AvailabilityChangeEntity];
