import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { EmbeddedPostgres } from '../../src/database/embedded/embedded-postgres';
import { pgliteTemplateDir, serverUrl } from './database';

/** Embedded runs: initdb once into a template that every test file copies. */
export default async function globalSetup(): Promise<void> {
  if (serverUrl()) return;
  const template = pgliteTemplateDir();
  if (existsSync(template) && readdirSync(template).length > 0) return;
  const building = `${template}.${process.pid}`;
  mkdirSync(building, { recursive: true });
  const embedded = new EmbeddedPostgres(building);
  await embedded.start();
  await embedded.stop();
  rmSync(template, { recursive: true, force: true });
  renameSync(`${building}/pgdata`, template);
  rmSync(building, { recursive: true, force: true });
}
