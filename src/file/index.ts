/*
 * The file module's front door: what other modules may use of it.
 */
export { FileModule } from './file.module';
