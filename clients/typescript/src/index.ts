import createFetchClient, { type Client, type ClientOptions as FetchOptions } from 'openapi-fetch';
import type { paths } from './schema';

export type { components, operations, paths } from './schema';

export interface ClientOptions {
  /** Where the service answers, e.g. `http://localhost:3000`. */
  baseUrl: string;
  /** Sent as `x-api-key` on every call. */
  apiKey: string;
  /** The `access_token` from login, for the owner's calls; sent as a Bearer token. */
  accessToken?: string;
  /** Another fetch implementation (tests, older runtimes). */
  fetch?: FetchOptions['fetch'];
}

/** Every operation of the service, typed: paths, parameters, bodies and answers. */
export type MenuOrderClient = Client<paths>;

/**
 * A client for one caller: the API key always, and the owner's token when
 * given. Call `createClient` again with `accessToken` after logging in.
 */
export function createClient(options: ClientOptions): MenuOrderClient {
  const headers: Record<string, string> = { 'x-api-key': options.apiKey };
  if (options.accessToken) headers.authorization = `Bearer ${options.accessToken}`;
  return createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/$/, ''),
    headers,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
