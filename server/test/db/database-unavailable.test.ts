import { toApiError } from '../../src/http/error-handler';

describe('errors while the database cannot be reached', () => {
  test.each([
    [{ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' }],
    [{ code: '57P01', message: 'terminating connection due to administrator command' }],
    [{ code: '08006', message: 'connection failure' }],
    [{ message: 'timeout exceeded when trying to connect' }],
    [{ message: 'Connection terminated unexpectedly' }],
  ])('%j answers 503 SERVICE_UNAVAILABLE, so clients retry', (error) => {
    const apiError = toApiError(Object.assign(new Error(error.message), error));
    expect(apiError.code).toBe('SERVICE_UNAVAILABLE');
    expect(apiError.httpStatus).toBe(503);
  });

  test('any other failure stays 500 INTERNAL_SERVER_ERROR', () => {
    expect(toApiError(new Error('boom')).code).toBe('INTERNAL_SERVER_ERROR');
    expect(toApiError(Object.assign(new Error('unique violation'), { code: '23505' })).code).toBe(
      'INTERNAL_SERVER_ERROR',
    );
  });
});
