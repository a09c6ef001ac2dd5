import { serverUrl } from './database';

/**
 * A test that needs several processes on one database: the embedded database
 * allows one process per data directory, so it runs on the server only.
 */
export const serverOnly: jest.It = serverUrl() ? it : it.skip;
