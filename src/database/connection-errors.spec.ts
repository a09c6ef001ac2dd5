import { QueryRunnerAlreadyReleasedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';
import { isDatabaseUnavailable } from './connection-errors';

describe('isDatabaseUnavailable', () => {
  it('counts a transaction whose connection died under it as an outage', () => {
    expect(isDatabaseUnavailable(new QueryRunnerAlreadyReleasedError())).toBe(true);
    expect(isDatabaseUnavailable(new QueryRunnerProviderAlreadyReleasedError())).toBe(true);
  });

  it('counts a terminated backend and a refused socket as an outage', () => {
    expect(isDatabaseUnavailable({ code: '57P01', message: 'terminating connection' })).toBe(true);
    expect(isDatabaseUnavailable({ driverError: { code: 'ECONNREFUSED' } })).toBe(true);
  });

  it('leaves other database errors to be defects', () => {
    expect(isDatabaseUnavailable({ code: '22021', message: 'invalid byte sequence' })).toBe(false);
    expect(isDatabaseUnavailable(new Error('relation "x" does not exist'))).toBe(false);
  });
});
