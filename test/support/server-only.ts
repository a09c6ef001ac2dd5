import { serverUrl } from './database';

/**
 * A test that needs several processes on one database: the embedded database
 * allows one process per data directory, so it runs on the server only.
 */
export const serverOnly: jest.It = serverUrl() ? it : it.skip;

/** A group of tests that needs several processes or connections on one database (see serverOnly). */
export const describeServerOnly: jest.Describe = serverUrl() ? describe : describe.skip;

/**
 * A group of tests of the embedded database itself (its data directory, its
 * lock, its worker): run by `npm test` without TEST_DATABASE_URL only.
 */
export const describeEmbeddedOnly: jest.Describe = serverUrl() ? describe.skip : describe;
