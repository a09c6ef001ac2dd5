import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  linkSync,
  mkdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

// R64: generated secret.
/** The file in DATA_DIR that holds the secret generated when JWT_SECRET is unset. */
export const GENERATED_SECRET_FILE = 'jwt-secret';

/**
 * The signing secret of an installation that set no JWT_SECRET (outside
 * production only): 256 random bits made on the first start and kept in the
 * data directory, readable by the service's user only. A secret shared by
 * every such installation would let anyone sign a token for any owner whose
 * uuid a storefront shows; one per data directory cannot be known elsewhere,
 * and it survives restarts so issued tokens stay valid.
 */
export function generatedSecret(dataDir: string): string {
  const path = join(dataDir, GENERATED_SECRET_FILE);
  const existing = readSecret(path);
  if (existing !== undefined) return existing;

  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const draft = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    // link() refuses an existing target, so two processes starting together on
    // one data directory agree on whichever secret was linked first.
    linkSync(draft, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(draft);
  }
  const secret = readSecret(path);
  if (secret === undefined) {
    throw new Error(`${path} could not be written`);
  }
  return secret;
}

function readSecret(path: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const secret = text.trim();
  if (Buffer.byteLength(secret) < 32) {
    throw new Error(`${path} holds no usable secret (32 bytes or more)`);
  }
  // A copy restored with looser permissions is tightened rather than refused.
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  return secret;
}
