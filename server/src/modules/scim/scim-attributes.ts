// Attribute projection (RFC 7644 sections 3.4.2.5 and 3.9): `attributes` replaces the default set of returned
// attributes with the listed ones, `excludedAttributes` removes the listed ones from it. Names are
// case-insensitive, may carry the resource's schema URN (`urn:...:User:name.givenName`) and may name one
// sub-attribute (`name.givenName`, `emails.type`, `meta.location`). `id` and `schemas` are always returned, and
// so is `value` of each item of a multi-valued attribute (it is what identifies the item). Names this service
// does not know (or that are no attribute names) select nothing and exclude nothing; with both parameters,
// `attributes` decides. An empty or absent parameter changes nothing.
export interface Projection {
  attributes?: string;
  excludedAttributes?: string;
}

type Resource = Record<string, unknown>;
/** What a projection leaves of a resource: `id` and `schemas` always. */
export type Projected<T> = Partial<T> & Pick<T, 'id' & keyof T> & Pick<T, 'schemas' & keyof T>;
const always = new Set(['id', 'schemas']);

/** `[top, sub?]` pairs, lower case, with a leading schema URN removed. */
function parse(list: string | undefined, schemaUrn: string): [string, string | undefined][] {
  if (list === undefined || list.trim() === '') return [];
  const prefix = `${schemaUrn.toLowerCase()}:`;
  return list.split(',').flatMap((raw) => {
    let name = raw.trim().toLowerCase();
    if (name === '') return [];
    if (name.startsWith(prefix)) name = name.slice(prefix.length);
    if (!/^[a-z][a-z0-9_$-]*(\.(\$ref|[a-z][a-z0-9_$-]*))?$/.test(name)) return [];
    const [top, sub] = name.split('.');
    return [[top, sub] as [string, string | undefined]];
  });
}

function pickSub(value: unknown, subs: Set<string>, keep: boolean): unknown {
  const one = (item: unknown, isItem: boolean) => {
    if (typeof item !== 'object' || item === null) return item;
    const entries = Object.entries(item).filter(([key]) => {
      const k = key.toLowerCase();
      if (isItem && k === 'value') return true;
      return subs.has(k) === keep;
    });
    return Object.fromEntries(entries);
  };
  return Array.isArray(value) ? value.map((item) => one(item, true)) : one(value, false);
}

/** The resource as the projection asks; with neither parameter, the resource unchanged. */
export function project<T extends Resource>(resource: T, schemaUrn: string, projection: Projection = {}): Projected<T> {
  const wanted = parse(projection.attributes, schemaUrn);
  const excluded = parse(projection.excludedAttributes, schemaUrn);
  if (wanted.length === 0 && excluded.length === 0) return resource;
  const result: Resource = {};
  for (const [key, value] of Object.entries(resource)) {
    const k = key.toLowerCase();
    if (always.has(k)) {
      result[key] = value;
      continue;
    }
    if (wanted.length > 0) {
      const asked = wanted.filter(([top]) => top === k);
      if (asked.length === 0) continue;
      const subs = asked.map(([, sub]) => sub);
      result[key] = subs.includes(undefined) ? value : pickSub(value, new Set(subs as string[]), true);
    } else {
      const dropped = excluded.filter(([top]) => top === k);
      const subs = dropped.map(([, sub]) => sub);
      if (subs.includes(undefined)) continue;
      result[key] = subs.length ? pickSub(value, new Set(subs as string[]), false) : value;
    }
  }
  return result as Projected<T>;
}

/** A list response with each resource projected. */
export function projectList<T extends Resource, L extends { Resources: T[] }>(
  list: L,
  schemaUrn: string,
  projection: Projection = {},
): L {
  return { ...list, Resources: list.Resources.map((r) => project(r, schemaUrn, projection)) };
}

/** Whether the projection returns the top-level attribute (to skip loading what is not returned). */
export function returns(attribute: string, schemaUrn: string, projection: Projection = {}): boolean {
  const probe = { [attribute]: true };
  return attribute in project(probe, schemaUrn, projection);
}

/** The body of a search (RFC 7644 section 3.4.3) as the query of a list. */
export function searchQuery(body: {
  filter?: string;
  startIndex?: number;
  count?: number;
  attributes?: string[];
  excludedAttributes?: string[];
}) {
  return {
    filter: body.filter,
    startIndex: body.startIndex,
    count: body.count,
    attributes: body.attributes?.join(','),
    excludedAttributes: body.excludedAttributes?.join(','),
  };
}
