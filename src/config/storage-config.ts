import { ConfigError, Env, read, url } from './env-readers';

export type StorageDriverName = 'local' | 's3';

export interface S3Config {
  endPoint: string;
  port: number | undefined;
  useSSL: boolean;
  bucket: string;
  accessKey: string;
  secretKey: string;
  region: string;
  publicUrl: string;
}

/** The S3 bucket's settings, all required when STORAGE_DRIVER=s3. */
export function s3Config(env: Env): S3Config {
  const endpoint = url(env, 'S3_ENDPOINT', ['http:', 'https:']);
  if (!endpoint) throw new ConfigError('S3_ENDPOINT', 'is required when STORAGE_DRIVER=s3');
  const parsed = new URL(endpoint);
  const required = (name: string) => {
    const value = read(env, name);
    if (!value) throw new ConfigError(name, 'is required when STORAGE_DRIVER=s3');
    return value;
  };
  const bucket = required('S3_BUCKET');
  return {
    endPoint: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : undefined,
    useSSL: parsed.protocol === 'https:',
    bucket,
    accessKey: required('S3_ACCESS_KEY'),
    secretKey: required('S3_SECRET_KEY'),
    region: read(env, 'S3_REGION') ?? 'us-east-1',
    publicUrl: (
      url(env, 'S3_PUBLIC_URL', ['http:', 'https:']) ?? `${endpoint.replace(/\/$/, '')}/${bucket}`
    ).replace(/\/$/, ''),
  };
}
