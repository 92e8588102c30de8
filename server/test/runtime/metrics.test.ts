// GET /metrics: Prometheus text with request counts and durations per operation and status, the job queue, and
// process metrics (event-loop lag); off in production without METRICS_TOKEN, and behind the token when set.
import express from 'express';
import request from 'supertest';
import { metricsRoute } from '../../src/http/metrics-route';
import { createTestContext, type TestContext } from '../support/context';
import { v1 } from '../support/fixtures';

describe('metrics', () => {
  let ctx: TestContext;
  afterEach(() => ctx?.close());

  test('counts requests per operationId and status, and shows queue depth, lag and event-loop lag', async () => {
    ctx = await createTestContext();
    await request(ctx.app).get('/core/v1/tenants').set(v1).expect(401);
    const res = await request(ctx.app).get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/core_http_requests_total\{operation="listTenants",status="401"\} [1-9]/);
    expect(res.text).toMatch(
      /core_http_request_duration_seconds_bucket\{le="0.05",operation="listTenants",status="401"\}/,
    );
    expect(res.text).toMatch(/^core_job_queue_depth \d+$/m);
    expect(res.text).toMatch(/^core_job_queue_lag_seconds \d/m);
    expect(res.text).toMatch(/^nodejs_eventloop_lag_seconds /m);
    expect(res.text).toContain('core_dispatches_total');
    expect(res.text).toContain('core_sign_in_total');
    expect(res.text).toContain('core_lockouts_total');
  });

  test('metrics scraped by an outsider: in production without METRICS_TOKEN the endpoint is off (404)', async () => {
    ctx = await createTestContext();
    const config = {
      ...ctx.config,
      mode: 'production' as const,
      runtime: { ...ctx.config.runtime, metricsToken: null },
    };
    const app = express().get('/metrics', metricsRoute(config));
    const res = await request(app).get('/metrics').expect(404);
    expect(res.body).toMatchObject({ status: 'error', error: { code: 'NOT_FOUND' } });
    expect(res.text).not.toContain('core_http_requests_total');
  });

  test('metrics scraped without or with a wrong bearer token are refused (401) when METRICS_TOKEN is set', async () => {
    ctx = await createTestContext({ env: { METRICS_TOKEN: 'scrape-secret-1234567890' } });
    expect((await request(ctx.app).get('/metrics').expect(401)).body).toMatchObject({
      status: 'error',
      error: { code: 'UNAUTHORIZED' },
    });
    await request(ctx.app).get('/metrics').set('authorization', 'Bearer scrape-secret-123456789X').expect(401);
    const ok = await request(ctx.app)
      .get('/metrics')
      .set('authorization', 'Bearer scrape-secret-1234567890')
      .expect(200);
    expect(ok.text).toContain('core_http_requests_total');
  });
});

describe('sign-in metrics', () => {
  const value = (text: string, series: string) =>
    Number(
      text
        .split('\n')
        .find((line) => line.startsWith(`${series} `))
        ?.slice(series.length + 1) ?? 0,
    );

  test('sign-in outcomes are counted by grant type and outcome, and refusals by a lockout or limit as lockouts', async () => {
    const ctx = await createTestContext();
    try {
      const scrape = async () => (await request(ctx.app).get('/metrics').expect(200)).text;
      const before = await scrape();
      const attempt = () =>
        request(ctx.app)
          .post('/core/v1/sessions')
          .set(v1)
          .send({ grantType: 'password', email: 'nobody@example.test', password: 'Wrong-Password-1!' });
      let refused = 0;
      for (let i = 0; i < 40 && refused === 0; i++) if ((await attempt()).status === 429) refused++;
      expect(refused).toBe(1);
      const after = await scrape();
      const wrong = 'core_sign_in_total{method="password",outcome="invalid_credentials"}';
      const limited = 'core_sign_in_total{method="password",outcome="too_many_requests"}';
      expect(value(after, wrong) - value(before, wrong)).toBeGreaterThanOrEqual(1);
      expect(value(after, limited) - value(before, limited)).toBe(1);
      const locked = 'core_lockouts_total{kind="password"}';
      expect(value(after, locked) - value(before, locked)).toBe(1);
    } finally {
      await ctx.close();
    }
  }, 60_000);
});

describe('metrics labels', () => {
  test('requests to made-up paths do not mint new label values (one "other" series, no cardinality attack)', async () => {
    const ctx = await createTestContext();
    try {
      for (let i = 0; i < 5; i++) await request(ctx.app).get(`/made-up-${i}-${Date.now()}`);
      const res = await request(ctx.app).get('/metrics').expect(200);
      expect(res.text).not.toMatch(/operation="made-up/);
      expect(res.text).toMatch(/core_http_requests_total\{operation="other",status="404"\} [5-9]/);
    } finally {
      await ctx.close();
    }
  });
});
