/** One request the app sent to the fake API. */
export interface FakeCall {
  method: string;
  url: URL;
  headers: Headers;
  body: unknown;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Route = (call: FakeCall) => Reply | Promise<Reply>;

export const EUROPE = 'http://localhost:4000';
export const BRAZIL = 'http://localhost:4001';

/** Replaces global fetch with a router over requests; the calls are recorded in order. */
export function fakeApi(route: Route) {
  const calls: FakeCall[] = [];
  const fetchMock = jest.fn(async (input: Request) => {
    const text = input.method === 'GET' ? '' : await input.clone().text();
    const call: FakeCall = {
      method: input.method,
      url: new URL(input.url),
      headers: input.headers,
      body: text ? JSON.parse(text) : undefined,
    };
    calls.push(call);
    const reply = await route(call);
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'content-type': 'application/json', ...reply.headers },
    });
  });
  globalThis.fetch = fetchMock as unknown as typeof fetch;
  return { calls, fetch: fetchMock };
}

export function apiError(httpStatus: number, code: string, extra: Record<string, unknown> = {}): Reply {
  return {
    status: httpStatus,
    body: { status: 'error', error: { httpStatus, code, message: 'English for developers', ...extra } },
  };
}

export function probeReply(region: string, available: boolean, baseUrl = EUROPE): Reply {
  return { status: 200, body: { region, baseUrl, available } };
}

export const NETWORK_DOWN: Route = () => {
  throw new TypeError('fetch failed');
};

export function sessionBody(
  factors: Record<string, string> = { password: 'verified' },
  id = '0b6f2d4e-8a51-4c55-9a8e-3f3f6a0d2c11',
) {
  return { id, accessToken: `access-${id}`, refreshToken: `refresh-${id}`, factors };
}

/** A promise and its resolve function, to hold an answer back until a test lets it go. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

export function idpProbeReply(region: string, type: 'oidc' | 'saml' | 'skolon' | null, baseUrl = EUROPE): Reply {
  return { status: 200, body: { region, baseUrl, available: type !== null, type } };
}
