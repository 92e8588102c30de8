import { ConfigError, loadConfig } from '../../src/config';

describe('configuration', () => {
  test('development starts with generated defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ mode: 'development', region: 'eu-north-1', port: 4000, publicBaseUrl: 'http://localhost:4000' });
    expect(config.notify.transport).toBe('outbox');
  });

  test('production refuses to start without its secrets and names every missing one', () => {
    let error: unknown;
    try {
      loadConfig({ NODE_ENV: 'production' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['ACCESS_TOKEN_SIGNING_KEYS', 'SECRET_KEY', 'DATABASE_URL', 'PUBLIC_BASE_URL', 'SMTP_URL', 'SMS_API_URL']) {
      expect(problems).toContain(name);
    }
  });

  test.each([
    [{ REGION: 'mars-1' }, 'REGION'],
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PUBLIC_BASE_URL: 'not a url' }, 'PUBLIC_BASE_URL'],
    [{ SECRET_KEY: 'c2hvcnQ=' }, 'SECRET_KEY'],
    [{ NOTIFY_TRANSPORT: 'pigeon' }, 'NOTIFY_TRANSPORT'],
  ])('rejects %j with a message naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(new RegExp(name));
  });
});
