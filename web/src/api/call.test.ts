import { ApiFailure } from './api-failure';
import { MAX_SHED_RETRY_WAIT_MS, call } from './call';

/*
 * A request shed at the door (503 SERVICE_UNAVAILABLE with Retry-After) was not processed: the app asks once
 * more after the wait the server names, when that wait is short, and otherwise reports the region as busy.
 */
type Answer = { status: number; body?: unknown; headers?: Record<string, string> };

const shed = (retryAfter: string | null): Answer => ({
  status: 503,
  body: { status: 'error', error: { httpStatus: 503, code: 'SERVICE_UNAVAILABLE', message: 'busy' } },
  headers: retryAfter === null ? {} : { 'retry-after': retryAfter },
});
const ok: Answer = { status: 200, body: { fine: true } };

/** An openapi-fetch-like request that answers each attempt from `answers`, counting the attempts. */
function requestAnswering(...answers: Answer[]) {
  const attempts: number[] = [];
  const request = async () => {
    const answer = answers[Math.min(attempts.length, answers.length - 1)];
    attempts.push(Date.now());
    const response = new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json', ...answer.headers },
    });
    return response.ok ? { data: answer.body, response } : { error: answer.body, response };
  };
  return { request, attempts };
}

async function failureOf(promise: Promise<unknown>): Promise<ApiFailure> {
  try {
    await promise;
  } catch (error) {
    return error as ApiFailure;
  }
  throw new Error('expected a failure');
}

describe('a request shed at the door', () => {
  test('is sent once more after Retry-After, and its second answer is the result', async () => {
    const { request, attempts } = requestAnswering(shed('1'), ok);
    const result = await call(request);
    expect(result.data).toEqual({ fine: true });
    expect(attempts).toHaveLength(2);
    expect(attempts[1] - attempts[0]).toBeGreaterThanOrEqual(990);
  });

  test('shed twice, fails as a shed SERVICE_UNAVAILABLE after exactly two attempts', async () => {
    const { request, attempts } = requestAnswering(shed('0'), shed('0'), ok);
    const failure = await failureOf(call(request));
    expect([failure.code, failure.httpStatus, failure.shed]).toEqual(['SERVICE_UNAVAILABLE', 503, true]);
    expect(attempts).toHaveLength(2);
  });

  test('with a Retry-After longer than a few seconds, is not retried and is reported busy at once', async () => {
    const { request, attempts } = requestAnswering(shed(String(MAX_SHED_RETRY_WAIT_MS / 1000 + 1)), ok);
    const failure = await failureOf(call(request));
    expect([failure.code, failure.shed]).toEqual(['SERVICE_UNAVAILABLE', true]);
    expect(attempts).toHaveLength(1);
    expect(MAX_SHED_RETRY_WAIT_MS).toBeLessThanOrEqual(5000);
  });

  test('a 503 without Retry-After (the request may have been processed) is not retried and not counted as shed', async () => {
    const { request, attempts } = requestAnswering(shed(null), ok);
    const failure = await failureOf(call(request));
    expect([failure.code, failure.shed]).toEqual(['SERVICE_UNAVAILABLE', false]);
    expect(attempts).toHaveLength(1);
  });

  test('other failures (500, 429 with Retry-After) are never retried', async () => {
    for (const answer of [
      { status: 500, body: { status: 'error', error: { httpStatus: 500, code: 'INTERNAL_SERVER_ERROR' } } },
      {
        status: 429,
        body: { status: 'error', error: { httpStatus: 429, code: 'TOO_MANY_REQUESTS' } },
        headers: { 'retry-after': '0' },
      },
    ]) {
      const { request, attempts } = requestAnswering(answer, ok);
      const failure = await failureOf(call(request));
      expect(failure.shed).toBe(false);
      expect(attempts).toHaveLength(1);
    }
  });
});
