/**
 * Imported first by the entry points (the server and the migration command),
 * before any module reads the environment: settings from `./.env` fill in
 * what the environment leaves unset.
 */
import { loadEnvFile } from './env-file';

loadEnvFile();
