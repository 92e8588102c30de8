// fast-check arbitraries for values a JSON schema of the contract accepts: every type, format, pattern, length
// and range the contract uses, with full Unicode in free text (NUL, emoji, right-to-left marks included).
import fc from 'fast-check';
import { deref, type Operation, type Schema } from './contract';
import type { Req } from './requests';

const maxSafe = Number.MAX_SAFE_INTEGER;

/** Patterns of the contract that fast-check's regex support cannot generate, or generates poorly. */
const patterns: Record<string, () => fc.Arbitrary<string>> = {
  '^(?=.*[a-z])(?=.*[A-Z])(?=.*[0-9])(?=.*[^A-Za-z0-9]).*$': () =>
    fc
      .tuple(
        fc.string({ minLength: 6, maxLength: 40 }),
        fc.constantFrom('a', 'q', 'z'),
        fc.constantFrom('A', 'Q', 'Z'),
        fc.constantFrom('0', '5', '9'),
        fc.constantFrom('!', '-', 'ä', '€', ' '),
      )
      .map(([rest, a, b, c, d]) => `${a}${rest}${b}${c}${d}`),
  '^\\+[0-9]+$': () => fc.stringMatching(/^\+[0-9]{6,15}$/),
  '\\S': () =>
    fc
      .tuple(fc.string({ maxLength: 60, unit: 'binary' }), fc.constantFrom('x', 'ö', '文', '😀'))
      .map(([s, c]) => `${s}${c}`),
  '^[\\x21-\\x7E]+$': () => fc.stringMatching(/^[\x21-\x7E]{1,80}$/),
};

function stringArbitrary(schema: Schema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 200, Math.max(minLength, 200));
  const fit = (a: fc.Arbitrary<string>) =>
    a.filter((s) => s.length >= minLength && s.length <= (schema.maxLength ?? Infinity));
  switch (schema.format) {
    case 'email':
      return fit(
        fc
          .tuple(fc.stringMatching(/^[a-z0-9._%+-]{1,20}$/), fc.domain())
          .map(([local, domain]) => `${local.replace(/^\.|\.$/g, 'a').replace(/\.\.+/g, '.')}@${domain}`),
      );
    case 'date-time':
      return fc
        .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString());
    case 'uuid':
      return fc.uuid();
    case 'uri': {
      // A pattern narrows the format (http(s) only, no fragment): the URLs it admits.
      const urls = fit(fc.webUrl({ withQueryParameters: true, withFragments: !schema.pattern }));
      return schema.pattern ? urls.filter((s) => new RegExp(schema.pattern).test(s)) : urls;
    }
    case 'hostname':
      return fit(fc.domain());
  }
  if (schema.pattern) {
    const known = patterns[schema.pattern];
    if (known) return fit(known());
    // One character class repeated (`^[A-Za-z0-9_-]+$`): its characters at the schema's lengths, so no filter spins.
    const repeated = /^\^(\[[^\]]+\])[+*]\$$/.exec(schema.pattern);
    if (repeated)
      return fc.string({
        unit: fc.stringMatching(new RegExp(`^${repeated[1]}$`)),
        minLength: Math.max(minLength, 1),
        maxLength: Math.max(minLength, Math.min(maxLength, 100)),
      });
    return fit(fc.stringMatching(new RegExp(schema.pattern)));
  }
  return fc
    .string({
      minLength,
      maxLength,
      unit: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...'abcXYZ019 -_.@') },
        {
          weight: 1,
          arbitrary: fc.constantFrom('\u0000', '\u202e', '\u200b', 'é', '文', '😀', "'", '"', '\\', '%', '\n'),
        },
        { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 1, unit: 'binary' }) },
      ),
    })
    .filter((s) => s.length >= minLength);
}

function integerArbitrary(schema: Schema): fc.Arbitrary<number> {
  const min = Math.max(
    schema.minimum ?? -maxSafe,
    schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -maxSafe,
    -maxSafe,
  );
  const max = Math.min(
    schema.maximum ?? maxSafe,
    schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : maxSafe,
    maxSafe,
  );
  const edges = [min, max, Math.min(max, Math.max(min, 0)), Math.min(max, Math.max(min, 1))];
  return fc.oneof(
    fc.constantFrom(...edges),
    fc.integer({ min, max }),
    fc.integer({ min: Math.max(min, -1000), max: Math.min(max, 1000) }),
  );
}

function numberArbitrary(schema: Schema): fc.Arbitrary<number> {
  const min = schema.minimum ?? -1e12;
  const max = schema.maximum ?? 1e12;
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n));
}

/** An arbitrary of values `schema` accepts (readOnly properties left out: they are answers, not requests). */
export function arbitraryFor(input: Schema, depth = 0): fc.Arbitrary<unknown> {
  const schema = deref(input);
  if (!schema || Object.keys(schema).length === 0 || depth > 6)
    return fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean(), fc.constant(null));
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.allOf) return arbitraryFor(Object.assign({}, ...schema.allOf.map((s: Schema) => deref(s))), depth);
  if (schema.oneOf) return fc.oneof(...schema.oneOf.map((s: Schema) => arbitraryFor(s, depth + 1)));
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((s: Schema) => arbitraryFor(s, depth + 1)));
  if (Array.isArray(schema.type))
    return fc.oneof(...schema.type.map((t: string) => arbitraryFor({ ...schema, type: t }, depth)));
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return integerArbitrary(schema);
    case 'number':
      return numberArbitrary(schema);
    case 'string':
      return stringArbitrary(schema);
    case 'array': {
      const items = arbitraryFor(schema.items ?? {}, depth + 1);
      const constraints = {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, Math.max(schema.minItems ?? 0, 5)),
      };
      return schema.uniqueItems
        ? fc.uniqueArray(items, { ...constraints, selector: (v) => JSON.stringify(v) })
        : fc.array(items, constraints);
    }
    case 'object':
    default: {
      const properties = Object.entries<Schema>(schema.properties ?? {}).filter(([, s]) => !deref(s).readOnly);
      const required = (schema.required ?? []) as string[];
      const record = fc.record(Object.fromEntries(properties.map(([k, s]) => [k, arbitraryFor(s, depth + 1)])), {
        requiredKeys: properties.map(([k]) => k).filter((k) => required.includes(k)),
      });
      return schema.minProperties ? record.filter((o) => Object.keys(o).length >= schema.minProperties) : record;
    }
  }
}

/** Optional query parameters of an operation, each present or not, with values their schemas accept. */
export function queryArbitrary(op: Operation): fc.Arbitrary<Record<string, string | string[]>> {
  const params = op.parameters.filter((p) => p.in === 'query' && !p.required);
  const entries = params.map((p) => {
    const schema = deref(p.schema);
    // An array as its parameter's form says: repeated (explode, the default) or comma-joined.
    const item =
      schema.type === 'array'
        ? arbitraryFor(schema).map((v) => (p.explode ? (v as unknown[]).map(String) : (v as unknown[]).join(',')))
        : arbitraryFor(schema).map(String);
    return [p.name, item] as const;
  });
  return fc.record(Object.fromEntries(entries), { requiredKeys: [] }) as fc.Arbitrary<
    Record<string, string | string[]>
  >;
}

/**
 * A request body: the contract's example with the tenant's ids (`example`, which reaches the deeper paths), or, `anyWeight`
 * times as often, anything the schema allows. A form body stays the valid request's.
 */
export function bodyArbitrary(
  op: Operation,
  base: Req,
  example: () => unknown,
  anyWeight: number,
): fc.Arbitrary<unknown> {
  if (!op.body || op.body.contentType === 'application/x-www-form-urlencoded') return fc.constant(base.body);
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(example()) },
    { weight: anyWeight, arbitrary: arbitraryFor(op.body.schema) },
  );
}
