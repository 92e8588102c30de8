import { ConfigError, loadConfig } from '../../src/config';

describe('configuration', () => {
  test('development starts with generated defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      mode: 'development',
      region: 'eu-north-1',
      port: 4000,
      publicBaseUrl: 'http://localhost:4000',
    });
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
    for (const name of [
      'ACCESS_TOKEN_SIGNING_KEYS',
      'SECRET_KEY',
      'DATABASE_URL',
      'PUBLIC_BASE_URL',
      'SMTP_URL',
      'SMS_API_URL',
      'WEBAUTHN_RP_ID',
      'WEBAUTHN_ORIGINS',
    ]) {
      expect(problems).toContain(name);
    }
  });

  test.each([
    [{ REGION: 'mars-1' }, 'REGION'],
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PUBLIC_BASE_URL: 'not a url' }, 'PUBLIC_BASE_URL'],
    [{ SECRET_KEY: 'c2hvcnQ=' }, 'SECRET_KEY'],
    [{ NOTIFY_TRANSPORT: 'pigeon' }, 'NOTIFY_TRANSPORT'],
    // pino would throw its own error at the first log line instead of the listed problems.
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
  ])('rejects %j with a message naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(new RegExp(name));
  });

  test('every bad variable is listed at once, one line each, with the rules across variables', () => {
    let error: unknown;
    try {
      loadConfig({
        NODE_ENV: 'production',
        PORT: 'eighty',
        REGION: 'mars-1',
        ACCESS_TOKEN_SIGNING_KEYS: '{not json',
        SECRET_KEY: 'c2hvcnQ=',
        TRUST_PROXY: 'true',
        SEED_DEMO_DATA: 'maybe',
        SAML_SP_PRIVATE_KEY: 'only the key',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    for (const expected of [
      /^PORT must be an integer from 0 to 65535$/,
      /^REGION must be one of /,
      /^ACCESS_TOKEN_SIGNING_KEYS is not valid JSON$/,
      /^SECRET_KEY must decode to at least 32 bytes/,
      /^TRUST_PROXY=true would trust any X-Forwarded-For/,
      /^SEED_DEMO_DATA must be true or false$/,
      /^SAML_SP_PRIVATE_KEY and SAML_SP_CERTIFICATE go together$/,
      /^DATABASE_URL is required in production$/,
    ])
      expect(problems.some((problem) => expected.test(problem))).toBe(true);
    expect((error as ConfigError).message.split('\n- ')).toHaveLength(problems.length + 1);
  });

  test.each([
    ['[]', 'must be a non-empty JSON array of private JWKs, each with a kid'],
    ['[{"kty":"EC","kid":"k1"}]', 'must be a non-empty JSON array of private JWKs, each with a kid'],
    ['{"kid":"k1","d":"x"}', 'must be a non-empty JSON array of private JWKs, each with a kid'],
  ])('signing keys %s are refused at boot, not when the first token is signed', (value, message) => {
    expect(() => loadConfig({ ACCESS_TOKEN_SIGNING_KEYS: value })).toThrow(`ACCESS_TOKEN_SIGNING_KEYS ${message}`);
  });

  test('signing keys given are parsed once, here', () => {
    const keys = [{ kty: 'EC', crv: 'P-256', kid: 'k2', d: 'd', x: 'x', y: 'y' }];
    expect(loadConfig({ ACCESS_TOKEN_SIGNING_KEYS: JSON.stringify(keys) }).secrets.signingKeys).toEqual(keys);
  });

  test('the demo data is seeded in development unless SEED_DEMO_DATA=false, never in tests or production', () => {
    expect(loadConfig({}).seedDemoData).toBe(true);
    expect(loadConfig({ SEED_DEMO_DATA: 'true' }).seedDemoData).toBe(true);
    expect(loadConfig({ SEED_DEMO_DATA: 'false' }).seedDemoData).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test' }).seedDemoData).toBe(false);
  });

  test('sending quotas default to 60 alarms created per sender, 30 external messages per sender and 300 per tenant, an hour', () => {
    expect(loadConfig({}).quotas).toEqual({
      alarmsPerSenderPerHour: 60,
      externalMessagesPerSenderPerHour: 30,
      externalMessagesPerTenantPerHour: 300,
    });
    expect(
      loadConfig({
        ALARMS_PER_SENDER_PER_HOUR: '100',
        EXTERNAL_MESSAGES_PER_SENDER_PER_HOUR: '40',
        EXTERNAL_MESSAGES_PER_TENANT_PER_HOUR: '500',
      }).quotas,
    ).toEqual({
      alarmsPerSenderPerHour: 100,
      externalMessagesPerSenderPerHour: 40,
      externalMessagesPerTenantPerHour: 500,
    });
    expect(() => loadConfig({ EXTERNAL_MESSAGES_PER_SENDER_PER_HOUR: '0' })).toThrow(
      /EXTERNAL_MESSAGES_PER_SENDER_PER_HOUR must be an integer from 1/,
    );
  });

  test('an empty value counts as unset', () => {
    expect(loadConfig({ PORT: '', REGION: '  ' })).toMatchObject({ port: 4000, region: 'eu-north-1' });
  });
});

describe('the mode is chosen on purpose', () => {
  test.each(['Production', 'prod', 'staging', 'PRODUCTION', 'dev'])(
    'NODE_ENV=%s is refused instead of running in development mode',
    (value) => {
      expect(() => loadConfig({ NODE_ENV: value })).toThrow(/NODE_ENV must be one of production, development, test/);
    },
  );

  test('unset, development and test stay what they were', () => {
    expect(loadConfig({}).mode).toBe('development');
    expect(loadConfig({ NODE_ENV: 'development' }).mode).toBe('development');
    expect(loadConfig({ NODE_ENV: 'test' }).mode).toBe('test');
  });

  test.each([
    'postgres://app@db.internal.example:5432/core',
    'postgres://app@10.0.0.12/core',
    'postgresql://app@[2001:db8::1]:5432/core',
    'postgres://app@postgres/core',
    'postgres://app@127.0.0.1.nip.example/core',
  ])('development (and test) on the database %s, which is not local, needs DEV_ALLOW_REMOTE_DATABASE=true', (url) => {
    for (const NODE_ENV of [undefined, 'development', 'test'])
      expect(() => loadConfig({ ...(NODE_ENV ? { NODE_ENV } : {}), DATABASE_URL: url })).toThrow(
        /DATABASE_URL is not a local database: development mode there needs DEV_ALLOW_REMOTE_DATABASE=true/,
      );
    expect(loadConfig({ DATABASE_URL: url, DEV_ALLOW_REMOTE_DATABASE: 'true' }).databaseUrl).toBe(url);
  });

  test.each([
    'postgres://postgres@127.0.0.1:5432/core',
    'postgres://postgres@127.8.0.1/core',
    'postgres://postgres@localhost/core',
    'postgres://postgres@[::1]:5432/core',
    'postgres:///core?host=/var/run/postgresql',
    'postgres://%2Fvar%2Frun%2Fpostgresql/core',
  ])('development on the local database %s needs no opt-in', (url) => {
    expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
  });

  test('a database named local by a socket query parameter on another host is not local', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://postgres@localhost/core?host=db.example' })).toThrow(
      /DEV_ALLOW_REMOTE_DATABASE/,
    );
  });

  test('production needs no opt-in, and refuses the development one', () => {
    const production = {
      NODE_ENV: 'production',
      PUBLIC_BASE_URL: 'https://api.example',
      SIGN_IN_APP_URL: 'https://login.example',
      DATABASE_URL: 'postgres://app@db.internal.example/core',
      SECRET_KEY: Buffer.alloc(32, 1).toString('base64'),
      ACCESS_TOKEN_SIGNING_KEYS: JSON.stringify([{ kty: 'EC', kid: 'k1', d: 'd', x: 'x', y: 'y', crv: 'P-256' }]),
      SMTP_URL: 'smtp://mail.example',
      SMS_API_URL: 'https://sms.example',
      WEBAUTHN_RP_ID: 'login.example',
      WEBAUTHN_ORIGINS: 'https://login.example',
    };
    expect(loadConfig(production).mode).toBe('production');
    expect(() => loadConfig({ ...production, DEV_ALLOW_REMOTE_DATABASE: 'true' })).toThrow(
      /DEV_ALLOW_REMOTE_DATABASE is for development and tests only/,
    );
  });

  describe('passkeys (WebAuthn)', () => {
    const production = {
      NODE_ENV: 'production',
      PUBLIC_BASE_URL: 'https://api.example',
      SIGN_IN_APP_URL: 'https://login.example.com',
      DATABASE_URL: 'postgres://app@db.internal.example/core',
      SECRET_KEY: Buffer.alloc(32, 1).toString('base64'),
      ACCESS_TOKEN_SIGNING_KEYS: JSON.stringify([{ kty: 'EC', kid: 'k1', d: 'd', x: 'x', y: 'y', crv: 'P-256' }]),
      SMTP_URL: 'smtp://mail.example',
      SMS_API_URL: 'https://sms.example',
    };
    const problemsOf = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };

    test("production refuses to start without the relying party id and the sign-in app's origins", () => {
      const problems = problemsOf(production);
      expect(problems).toContain("WEBAUTHN_RP_ID is required in production (the sign-in app's domain, for passkeys)");
      expect(problems).toContain(
        "WEBAUTHN_ORIGINS is required in production (the sign-in app's origins, for passkeys)",
      );
      const config = loadConfig({
        ...production,
        WEBAUTHN_RP_ID: 'example.com',
        WEBAUTHN_ORIGINS: 'https://login.example.com, https://example.com',
      });
      expect(config.webauthn).toEqual({
        rpId: 'example.com',
        rpName: 'CoSafe',
        origins: ['https://login.example.com', 'https://example.com'],
        anyLocalhostPort: false,
      });
    });

    test("production refuses origins that are not https, not on the relying party's domain, or not origins", () => {
      const problems = problemsOf({
        ...production,
        WEBAUTHN_RP_ID: 'example.com',
        WEBAUTHN_ORIGINS:
          'http://login.example.com,https://login.evil.com,https://example.com/login,https://notexample.com',
      });
      expect(problems).toEqual([
        'WEBAUTHN_ORIGINS: http://login.example.com must be https in production',
        "WEBAUTHN_ORIGINS: https://login.evil.com is not on the relying party's domain example.com (WEBAUTHN_RP_ID)",
        'WEBAUTHN_ORIGINS: https://example.com/login is not an origin (scheme://host[:port], no path or trailing slash)',
        "WEBAUTHN_ORIGINS: https://notexample.com is not on the relying party's domain example.com (WEBAUTHN_RP_ID)",
      ]);
      expect(problemsOf({ WEBAUTHN_RP_ID: 'https://example.com' })).toEqual([
        'WEBAUTHN_RP_ID must be a domain name, such as login.example.com (no scheme, port or path)',
      ]);
    });

    test('development defaults to localhost, the sign-in app and the CORS origins, and any localhost port', () => {
      expect(loadConfig({}).webauthn).toEqual({
        rpId: 'localhost',
        rpName: 'CoSafe',
        origins: ['http://localhost:5173', 'http://127.0.0.1:5173'],
        anyLocalhostPort: true,
      });
      expect(loadConfig({ WEBAUTHN_ORIGINS: 'http://localhost:8080' }).webauthn).toMatchObject({
        origins: ['http://localhost:8080'],
        anyLocalhostPort: false,
      });
    });
  });

  test('the instance is named by INSTANCE_ID, else by host and process id', () => {
    expect(loadConfig({ INSTANCE_ID: 'eu-1a' }).instanceId).toBe('eu-1a');
    expect(loadConfig({}).instanceId).toMatch(new RegExp(`:${process.pid}$`));
    expect(() => loadConfig({ INSTANCE_ID: 'a\nb' })).toThrow(/INSTANCE_ID/);
  });
});
