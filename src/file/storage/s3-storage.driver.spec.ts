import { S3StorageDriver } from './s3-storage.driver';

const KEY = '0b8f4c2e-5d0a-4c52-9a57-2f7d1d1c9e01/logo/0123456789abcdef01234567-logo.png';

describe('S3StorageDriver', () => {
  // Port 9 on loopback: nothing listens, so any request would fail.
  const driver = new S3StorageDriver({
    endPoint: '127.0.0.1',
    port: 9,
    useSSL: false,
    bucket: 'uploads',
    accessKey: 'ACCESS',
    secretKey: 'SECRET',
    region: 'eu-central-1',
    publicUrl: 'https://cdn.example.com/uploads',
  });

  it('presigns a path-style PUT without reaching the store (the region is configured)', async () => {
    const issuedAt = new Date('2030-01-02T03:04:05Z');
    const upload = await driver.presignUpload({
      key: KEY,
      contentType: 'image/png',
      maxBytes: 100,
      expiresInSeconds: 600,
      issuedAt,
    });
    const url = new URL(upload.url);
    expect(`${url.origin}${url.pathname}`).toBe(`http://127.0.0.1:9/uploads/${KEY}`);
    expect(url.searchParams.get('X-Amz-Date')).toBe('20300102T030405Z');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('600');
    expect(url.searchParams.get('X-Amz-Credential')).toBe(
      'ACCESS/20300102/eu-central-1/s3/aws4_request',
    );
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(upload.method).toBe('PUT');
    expect(upload.headers).toEqual({ 'Content-Type': 'image/png' });
    expect(upload.expiresAt.toISOString()).toBe('2030-01-02T03:14:05.000Z');
  });

  it('maps keys to public URLs and back', () => {
    const url = driver.publicUrl(KEY);
    expect(url).toBe(`https://cdn.example.com/uploads/${KEY}`);
    expect(driver.keyFromUrl(url)).toBe(KEY);
    expect(driver.keyFromUrl(`http://127.0.0.1:9/uploads/${KEY}`)).toBeUndefined();
    expect(driver.keyFromUrl('https://cdn.example.com/other/x.png')).toBeUndefined();
  });
});
