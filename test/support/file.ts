import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { expectOk } from './expect';
import { TestUser } from './factory';
import { TestApp } from './test-app';

/** A real 1×1 PNG, followed by `extra` random bytes (image readers ignore trailing data). */
export function pngBytes(extra = 0): Buffer {
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );
  return Buffer.concat([png, randomBytes(extra)]);
}

export interface UploadFileRequest {
  file_name?: string;
  file_type?: string;
  file_size?: number;
  visibility?: string;
  directory?: string;
  [extra: string]: unknown;
}

export interface UploadUrl {
  upload_url: string;
  method: 'PUT';
  headers: Record<string, string>;
  file_url: string;
  object_key: string;
  expires_at: string;
}

/** POST …/cloud/upload-url as this user; the raw supertest response. */
export function postUploadUrls(
  t: TestApp,
  user: TestUser,
  body: Record<string, unknown>,
  path = 'cloud/upload-url',
) {
  return t.http.post(`${t.files}/${path}`).set(user.headers).send(body);
}

/** One upload URL for a PNG of `size` bytes under `directory` (default `business/logo/<uuid>`). */
export async function issueUploadUrl(
  t: TestApp,
  user: TestUser,
  file: UploadFileRequest = {},
  expiresIn?: number,
): Promise<UploadUrl> {
  const res = await postUploadUrls(t, user, {
    files: [
      {
        file_name: 'logo.png',
        file_type: 'image/png',
        file_size: pngBytes().length,
        visibility: 'public',
        directory: `business/logo/${user.uuid}`,
        ...file,
      },
    ],
    ...(expiresIn === undefined ? {} : { expires_in: expiresIn }),
  });
  const [entry] = expectOk<UploadUrl[]>(res);
  return entry;
}

/** Path and query of a URL of the service itself, for supertest. */
export function localPath(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** PUTs a body to a local upload URL through the service. */
export function putLocal(t: TestApp, uploadUrl: string, body: Buffer, contentType = 'image/png') {
  return t.http.put(localPath(uploadUrl)).set('content-type', contentType).send(body);
}

/** Every file under the local driver's storage and incoming folders, relative to DATA_DIR. */
export function storedFiles(t: TestApp): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else found.push(relative(t.config.dataDir, path));
    }
  };
  walk(join(t.config.dataDir, 'files'));
  walk(join(t.config.dataDir, 'files-incoming'));
  return found.sort();
}

export const S3RVER_ACCESS_KEY = 'S3RVER';
export const S3RVER_SECRET_KEY = 'S3RVER';

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** Environment for startTestApp with STORAGE_DRIVER=s3. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * s3rver, in process, on loopback, on a free port, over a temporary
 * directory, with one bucket. It speaks the S3 protocol and enforces the
 * access key and the expiry of presigned URLs, but checks neither V4
 * signatures nor POST policies: tests against it prove the happy path and
 * expiry, not signature checking.
 */
export async function startS3rver(): Promise<TestS3> {
  // s3rver ships no types.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const S3rver = require('s3rver');
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  const bucket = 'uploads';
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    bucket,
    env: {
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY: S3RVER_ACCESS_KEY,
      S3_SECRET_KEY: S3RVER_SECRET_KEY,
      S3_REGION: 'us-east-1',
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
