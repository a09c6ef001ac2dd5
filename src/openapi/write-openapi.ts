/**
 * npm run openapi: boots the app on a throw-away embedded database and writes
 * openapi/openapi.json. CI runs it and fails when the file changes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createApp, OPENAPI_PARTS } from '../app.factory';
import { loadConfig } from '../config/config';
import { buildOpenApiDocument } from './openapi';

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'openapi-'));
  const config = loadConfig({
    NODE_ENV: 'development',
    LOG_LEVEL: 'error',
    DATA_DIR: dataDir,
    API_NAMESPACE: 'svc',
  });
  const app = await createApp(config);
  try {
    const document = buildOpenApiDocument(app, OPENAPI_PARTS);
    const file = resolve(__dirname, '..', '..', 'openapi', 'openapi.json');
    writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
    process.stdout.write(`Wrote ${file}\n`);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
