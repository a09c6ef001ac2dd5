import { Response } from 'supertest';

/** A refusal in the error envelope, with its status and code. */
export function expectError(res: Response, status: number, code: string): void {
  if (res.status !== status || res.body?.error?.code !== code) {
    throw new Error(
      `Expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body)?.slice(0, 500)}`,
    );
  }
  expect(res.body.status).toBe(false);
  expect(typeof res.body.message).toBe('string');
  expect(Array.isArray(res.body.error.details)).toBe(true);
}

/** A success envelope; returns `data`. */
export function expectOk<T = any>(res: Response, status = 200): T {
  if (res.status !== status || res.body?.status !== true) {
    throw new Error(
      `Expected ${status}, got ${res.status} ${JSON.stringify(res.body)?.slice(0, 500)}`,
    );
  }
  return res.body.data as T;
}
