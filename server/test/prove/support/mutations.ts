// Invalid and hostile variants of a valid request, derived from the operation's schemas. `mustReject` variants
// break the contract in a way no coercion can repair, so the answer must be a 4xx; the others (injection strings,
// odd Unicode, values a lenient validator may coerce) must merely never cause a 5xx.
import { deref, type Operation, type Schema } from './contract';
import type { Req } from './requests';

export interface Mutation {
  name: string;
  mustReject: boolean;
  req: Req;
}

export const hostileStrings: string[] = [
  "' OR '1'='1",
  '1; DROP TABLE users; --',
  "'); SELECT pg_sleep(5); --",
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}#{7*7}',
  '../../../../etc/passwd',
  '%00%27%22',
  'line\r\nSet-Cookie: injected=1',
  '\u0000',
  'nul\u0000inside',
  '\ud800',
  'lone \udfff surrogate',
  '\u202eRTL override\u202c',
  'zero\u200bwidth\ufeff',
  'e\u0301\u0301\u0301\u0301 combining',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 😀👩‍👩‍👧‍👦',
  'Ω≈ç√∫˜µ≤≥÷ 田中さんにあげて下さい',
  '{"$gt": ""}',
  '__proto__',
  ' ',
  '',
];

const hugeString = (n: number) => 'A'.repeat(n);
const clone = <T>(v: T): T => structuredClone(v);

function typesOf(schema: Schema): string[] {
  const s = deref(schema);
  if (Array.isArray(s.type)) return s.type;
  if (s.type) return [s.type];
  const members = [...(s.oneOf ?? []), ...(s.anyOf ?? [])].map((m: Schema) => deref(m));
  return [...new Set(members.flatMap((m) => typesOf(m)))];
}

/** Values of the wrong type that no coercion turns into `schema`'s type (objects and arrays for scalars, and back). */
function uncoercible(schema: Schema): unknown[] {
  const types = typesOf(schema);
  if (types.length === 0) return [];
  const out: unknown[] = [];
  if (!types.includes('object')) out.push({ unexpected: true });
  if (!types.includes('array') && !types.includes('object')) out.push([1, 2]);
  if (types.every((t) => t === 'object' || t === 'array')) out.push('text', 42);
  return out;
}

/** Values of the wrong type that a validator with `coerceTypes` may turn into the right one. */
function coercible(schema: Schema): unknown[] {
  const types = typesOf(schema);
  const out: unknown[] = [];
  if (!types.includes('null')) out.push(null);
  if (!types.includes('string')) out.push('1', 'true', 'not a number');
  if (!types.includes('boolean')) out.push(true);
  if (!types.includes('integer') && !types.includes('number')) out.push(0, -1);
  return out;
}

/** Values that break `schema`'s own limits: lengths, ranges, enums, formats, patterns. */
function outOfRange(input: Schema): unknown[] {
  const s = deref(input);
  const out: unknown[] = [];
  if (typesOf(s).includes('string')) {
    if (s.maxLength !== undefined) out.push(hugeString(s.maxLength + 1));
    if (s.minLength) out.push('');
    if (s.enum) out.push('not-one-of-the-enum');
    if (s.format === 'uuid') out.push('00000000-0000-0000-0000-00000000000g');
    if (s.format === 'date-time') out.push('2026-13-45T25:61:00Z', 'yesterday');
    if (s.format === 'email') out.push('not-an-email', 'a@', '@b.c');
    if (s.format === 'uri') out.push('not a uri', 'javascript:alert(1)'.replace(':', ' '));
    if (s.pattern === '^[0-9]{6}$') out.push('12345a', '1234567');
  }
  if (typesOf(s).some((t) => t === 'integer' || t === 'number')) {
    if (s.minimum !== undefined) out.push(s.minimum - 1);
    if (s.maximum !== undefined) out.push(s.maximum + 1, Number.MAX_VALUE);
    if (typesOf(s).includes('integer') && !typesOf(s).includes('number')) out.push(1.5);
  }
  if (typesOf(s).includes('array')) {
    if (s.maxItems !== undefined) out.push(Array.from({ length: s.maxItems + 1 }, (_, i) => i + 1));
    if (s.minItems) out.push([]);
  }
  return out;
}

/** Values that are within the types but hostile: injection strings, odd Unicode, extreme numbers. */
function hostile(input: Schema): unknown[] {
  const s = deref(input);
  const out: unknown[] = [];
  if (typesOf(s).includes('string')) out.push(...hostileStrings, hugeString(Math.min(s.maxLength ?? 5_000, 5_000)));
  if (typesOf(s).some((t) => t === 'integer' || t === 'number'))
    out.push(-1, 0, 2 ** 31, 2 ** 31 - 1, -(2 ** 31) - 1, 2 ** 53 - 1, -(2 ** 53 - 1));
  return out;
}

function setAt(body: any, path: string[], value: unknown) {
  const copy = clone(body);
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key];
  node[path[path.length - 1]] = value;
  return copy;
}

function removeAt(body: any, path: string[]) {
  const copy = clone(body);
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key];
  delete node[path[path.length - 1]];
  return copy;
}

/** Properties of a body object, one level of nesting included, with the schema that applies to each. */
function propertiesOf(
  schema: Schema,
  body: any,
  prefix: string[] = [],
  depth = 0,
): { path: string[]; schema: Schema; required: boolean; parent: Schema }[] {
  const s = deref(schema);
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [];
  // For oneOf / anyOf bodies, the member whose required keys the body has.
  const members = [...(s.oneOf ?? []), ...(s.anyOf ?? [])].map((m: Schema) => deref(m));
  const shape = members.find((m) => (m.required ?? []).every((k: string) => k in body)) ?? s;
  const out: { path: string[]; schema: Schema; required: boolean; parent: Schema }[] = [];
  for (const [key, propSchema] of Object.entries<Schema>(shape.properties ?? {})) {
    if (!(key in body)) continue;
    const path = [...prefix, key];
    out.push({ path, schema: deref(propSchema), required: (shape.required ?? []).includes(key), parent: shape });
    if (depth < 1) out.push(...propertiesOf(propSchema, body[key], path, depth + 1));
  }
  return out;
}

/** The SAML assertion consumer service takes a form: broken forms, hostile XML and hostile redirect targets. */
function formMutations(base: Req): Mutation[] {
  const form = base.body as Record<string, string>;
  const b64 = (xml: string) => Buffer.from(xml).toString('base64');
  const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;"><!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">]><samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol">&lol4;</samlp:Response>`;
  const xxe =
    '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol">&x;</samlp:Response>';
  const out: Mutation[] = [];
  const add = (name: string, mustReject: boolean, body: Record<string, string>) =>
    out.push({ name, mustReject, req: { ...base, body } });
  const without = (key: string) => Object.fromEntries(Object.entries(form).filter(([k]) => k !== key));
  add('SAMLResponse missing', true, without('SAMLResponse'));
  // Without RelayState the browser is sent to the sign-in app's error page (a redirect, not a 4xx).
  add('RelayState missing', false, without('RelayState'));
  add('unknown form field', true, { ...form, unknownField: '1' });
  add('SAMLResponse not base64', false, { ...form, SAMLResponse: '%%%not base64%%%' });
  add('SAMLResponse not XML', false, { ...form, SAMLResponse: b64('not xml at all') });
  add('SAMLResponse billion laughs', false, { ...form, SAMLResponse: b64(laughs) });
  add('SAMLResponse external entity', false, { ...form, SAMLResponse: b64(xxe) });
  add('SAMLResponse empty', true, { ...form, SAMLResponse: '' });
  for (const target of [
    'https://evil.test/',
    'javascript:alert(1)',
    '//evil.test',
    'http://localhost:5173@evil.test/',
    'A'.repeat(3000),
    '',
  ]) {
    add(`RelayState ${describe(target)}`, target.length > 2048, { ...form, RelayState: target });
  }
  out.push({
    name: 'form sent as JSON',
    mustReject: true,
    req: { ...base, body: undefined, rawBody: JSON.stringify(form), contentType: 'application/json' },
  });
  out.push({
    name: 'form as plain text',
    mustReject: true,
    req: { ...base, body: undefined, rawBody: 'SAMLResponse=x', contentType: 'text/plain' },
  });
  return out;
}

function bodyMutations(op: Operation, base: Req): Mutation[] {
  if (op.body?.contentType === 'application/x-www-form-urlencoded') return formMutations(base);
  if (!op.body || base.body === undefined) return [];
  const out: Mutation[] = [];
  const withBody = (name: string, mustReject: boolean, body: unknown) =>
    out.push({ name, mustReject, req: { ...base, body, rawBody: undefined } });
  const withRaw = (name: string, mustReject: boolean, rawBody: string, contentType = base.contentType) =>
    out.push({ name, mustReject, req: { ...base, body: undefined, rawBody, contentType } });

  const schema = deref(op.body.schema);
  const closed = (x: Schema) => {
    const members = [...(x.oneOf ?? []), ...(x.anyOf ?? [])].map((m: Schema) => deref(m));
    return (
      x.additionalProperties === false || (members.length > 0 && members.every((m) => m.additionalProperties === false))
    );
  };
  const needsSomething = Boolean(schema.required?.length || schema.minProperties || schema.oneOf || schema.anyOf);
  withRaw('malformed JSON', true, '{"a": ');
  withRaw('truncated JSON string', true, '{"a": "\\u00');
  withRaw(
    'body is an array',
    typesOf(schema).every((t) => t !== 'array'),
    '[]',
  );
  withRaw('body is a string', true, '"text"');
  withRaw('body is a number', true, '12345');
  withRaw('body is null', true, 'null');
  withRaw('empty body', needsSomething, '');
  withRaw('empty object', needsSomething, '{}');
  withRaw('deeply nested JSON', closed(schema), `{"deep": ${'['.repeat(5_000)}${']'.repeat(5_000)}}`);
  withRaw(
    'number beyond 2^64',
    closed(schema),
    JSON.stringify(base.body).replace(/^\{/, '{"n": 123456789012345678901234567890,'),
  );
  withRaw('2 MB body', true, JSON.stringify({ filler: hugeString(2_000_000) }));
  withRaw('plain text content type', true, JSON.stringify(base.body), 'text/plain');
  withRaw('XML content type', true, '<body/>', 'application/xml');
  withRaw('JSON sent as a form', true, 'a=1&b=2', 'application/x-www-form-urlencoded');
  withRaw('duplicate keys', false, JSON.stringify(base.body).replace(/^\{/, '{"x":1,"x":2,'));
  withBody(
    '__proto__ pollution attempt',
    false,
    JSON.parse(JSON.stringify(base.body).replace(/^\{/, '{"__proto__": {"isAdmin": true, "polluted": true},')),
  );
  withBody('constructor pollution attempt', false, {
    ...(base.body as object),
    constructor: { prototype: { polluted: true } },
  });
  withBody('an unknown property', closed(schema), { ...(base.body as object), unknownProperty: 'x' });

  for (const prop of propertiesOf(schema, base.body)) {
    const at = prop.path.join('.');
    if (prop.required)
      out.push({ name: `${at} missing`, mustReject: true, req: { ...base, body: removeAt(base.body, prop.path) } });
    if (prop.path.length > 1 && closed(prop.parent))
      withBody(`${at}: unknown sibling`, true, setAt(base.body, [...prop.path.slice(0, -1), 'unknownProperty'], 1));
    for (const value of uncoercible(prop.schema))
      withBody(`${at} = ${JSON.stringify(value)}`, true, setAt(base.body, prop.path, value));
    for (const value of outOfRange(prop.schema))
      withBody(`${at} = ${describe(value)}`, true, setAt(base.body, prop.path, value));
    for (const value of coercible(prop.schema))
      withBody(`${at} = ${JSON.stringify(value)}`, false, setAt(base.body, prop.path, value));
    for (const value of hostile(prop.schema))
      withBody(`${at} = ${describe(value)}`, false, setAt(base.body, prop.path, value));
  }
  return out;
}

const describe = (v: unknown) => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 40 ? `${text.slice(0, 20)}…(${text.length} chars)` : text;
};

const pathValues: { value: string; mustRejectFor: (s: Schema) => boolean }[] = [
  {
    value: 'abc',
    mustRejectFor: (s) =>
      typesOf(s).includes('integer') || s.format === 'uuid' || Boolean(s.pattern?.startsWith('^[0-9a-f]')),
  },
  { value: '0', mustRejectFor: (s) => typesOf(s).includes('integer') || s.format === 'uuid' },
  { value: '-1', mustRejectFor: (s) => typesOf(s).includes('integer') || s.format === 'uuid' },
  { value: '1.5', mustRejectFor: (s) => typesOf(s).includes('integer') || s.format === 'uuid' },
  { value: '1e3', mustRejectFor: (s) => s.format === 'uuid' },
  { value: '0x10', mustRejectFor: (s) => s.format === 'uuid' },
  { value: '9007199254740993', mustRejectFor: (s) => typesOf(s).includes('integer') || s.format === 'uuid' },
  { value: '99999999999999999999999999', mustRejectFor: (s) => typesOf(s).includes('integer') || s.format === 'uuid' },
  { value: 'Infinity', mustRejectFor: (s) => typesOf(s).includes('integer') || s.format === 'uuid' },
  { value: 'NaN', mustRejectFor: (s) => typesOf(s).includes('integer') || s.format === 'uuid' },
  { value: '%27%20OR%20%271%27%3D%271', mustRejectFor: (s) => typesOf(s).includes('integer') || s.format === 'uuid' },
  { value: '..%2F..%2Fetc%2Fpasswd', mustRejectFor: (s) => typesOf(s).includes('integer') || s.format === 'uuid' },
  { value: '%00', mustRejectFor: () => false },
  { value: '%C0%AF', mustRejectFor: () => false },
  { value: '%E0%A4%A', mustRejectFor: () => false },
  { value: '%F0%9F%98%80', mustRejectFor: (s) => typesOf(s).includes('integer') || s.format === 'uuid' },
  { value: '%ED%A0%80', mustRejectFor: () => false },
  { value: 'A'.repeat(5000), mustRejectFor: (s) => s.maxLength !== undefined && s.maxLength < 5000 },
  { value: '%20', mustRejectFor: (s) => typesOf(s).includes('integer') || s.format === 'uuid' },
];

function pathMutations(op: Operation, base: Req): Mutation[] {
  const out: Mutation[] = [];
  for (const p of op.parameters.filter((x) => x.in === 'path')) {
    const segments = op.path.split('/');
    const index = segments.indexOf(`{${p.name}}`);
    for (const { value, mustRejectFor } of pathValues) {
      const realSegments = base.path.slice(op.base.length).split('/');
      realSegments[index] = value;
      out.push({
        name: `path ${p.name} = ${describe(decodeSafe(value))}`,
        mustReject: mustRejectFor(p.schema),
        req: { ...base, path: `${op.base}${realSegments.join('/')}` },
      });
    }
  }
  return out;
}

const decodeSafe = (v: string) => {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
};

function queryMutations(op: Operation, base: Req): Mutation[] {
  const out: Mutation[] = [];
  const add = (name: string, mustReject: boolean, change: Partial<Req>) =>
    out.push({ name, mustReject, req: { ...base, ...change, query: { ...base.query, ...(change.query ?? {}) } } });
  add('unknown query parameter', true, { query: { unknownParameter: '1' } });
  add('prototype pollution in the query', false, {
    rawQuery: '__proto__[polluted]=1&constructor[prototype][polluted]=1',
  });
  for (const p of op.parameters.filter((x) => x.in === 'query')) {
    const s = deref(p.schema);
    const raw = (value: string) => `${encodeURIComponent(p.name).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${value}`;
    add(`query ${p.name} repeated`, false, { rawQuery: `${raw('1')}&${raw('2')}` });
    add(`query ${p.name} as an object`, false, { rawQuery: `${p.name}[$gt]=1` });
    add(`query ${p.name} empty`, false, { rawQuery: raw('') });
    for (const value of [
      'abc',
      '-1',
      '1.5',
      '99999999999999999999999',
      'NaN',
      '%00',
      '%C0%AF',
      "'%20OR%201%3D1",
      'A'.repeat(3_000),
      '%F0%9F%98%80',
    ]) {
      const intRejects =
        typesOf(s).includes('integer') && !['99999999999999999999999'].includes(value)
          ? !/^-?\d+$/.test(value) || (s.minimum !== undefined && Number(value) < s.minimum)
          : false;
      add(`query ${p.name} = ${describe(decodeSafe(value))}`, intRejects && value !== '%00', { rawQuery: raw(value) });
    }
    for (const value of outOfRange(s))
      if (typeof value === 'number' || typeof value === 'string')
        add(`query ${p.name} = ${describe(value)}`, true, { rawQuery: raw(encodeURIComponent(String(value))) });
  }
  return out;
}

function headerMutations(op: Operation, base: Req): Mutation[] {
  const out: Mutation[] = [];
  const add = (name: string, mustReject: boolean, headers: Record<string, string | undefined>) => {
    const next = { ...base.headers };
    for (const [k, v] of Object.entries(headers))
      if (v === undefined) delete next[k];
      else next[k] = v;
    out.push({ name, mustReject, req: { ...base, headers: next } });
  };
  if ('cosafe-core-api-version' in base.headers) {
    add('version header missing', true, { 'cosafe-core-api-version': undefined });
    add('version header 2', true, { 'cosafe-core-api-version': '2' });
    add('version header text', true, { 'cosafe-core-api-version': 'one' });
  }
  if ('cosafe-tenant-id' in base.headers) {
    for (const value of [
      'abc',
      '0',
      '-1',
      '1.5',
      '99999999999',
      '1,2',
      `${base.headers['cosafe-tenant-id']} OR 1=1`,
      '\u00e9',
    ])
      add(`tenant header ${value}`, true, { 'cosafe-tenant-id': value });
    add('tenant header missing', true, { 'cosafe-tenant-id': undefined });
    add('tenant of nobody', true, { 'cosafe-tenant-id': '2147483647' });
  }
  if ('authorization' in base.headers) {
    const token = base.headers.authorization.replace(/^Bearer /, '');
    const [h, p] = token.split('.');
    const none = `${Buffer.from('{"alg":"none","typ":"at+jwt"}').toString('base64url')}.${p ?? 'e30'}.`;
    for (const [name, value] of [
      ['authorization missing', undefined],
      ['authorization empty', ''],
      ['authorization Basic', 'Basic dXNlcjpwYXNz'],
      ['authorization Bearer only', 'Bearer '],
      ['authorization garbage', 'Bearer not.a.token'],
      ['authorization unsigned JWT (alg none)', `Bearer ${none}`],
      [
        'authorization with a changed payload',
        `Bearer ${h}.${Buffer.from('{"sub":"1","sid":"00000000-0000-0000-0000-000000000000"}').toString('base64url')}.${token.split('.')[2] ?? ''}`,
      ],
      ['authorization huge', `Bearer ${'A'.repeat(8_000)}`],
      ['authorization with a NUL byte', 'Bearer abc%00def'],
    ] as const) {
      add(name, true, { authorization: value });
    }
  }
  return out;
}

export function mutationsOf(op: Operation, base: Req): Mutation[] {
  return [
    ...headerMutations(op, base),
    ...pathMutations(op, base),
    ...queryMutations(op, base),
    ...bodyMutations(op, base),
  ];
}
