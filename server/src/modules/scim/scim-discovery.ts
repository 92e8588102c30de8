// SCIM discovery (RFC 7643 sections 5-7): what this service supports, its resource types and their schemas
// limited to the attributes it keeps.
import type { Config } from '../../config';
import { listResponse } from './scim-filter';

export const userSchema = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const groupSchema = 'urn:ietf:params:scim:schemas:core:2.0:Group';

export const serviceProviderConfig = () => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig' as const],
  patch: { supported: true },
  bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
  filter: { supported: true, maxResults: 100 },
  changePassword: { supported: false },
  sort: { supported: false },
  etag: { supported: false },
  authenticationSchemes: [
    { type: 'oauthbearertoken', name: 'Api key', description: 'An api key with scope scim, as a Bearer token.' },
  ],
});

const base = (config: Config) => `${config.publicBaseUrl}/core/v1/scim/v2`;

export function resourceTypes(config: Config) {
  const type = (id: 'User' | 'Group', endpoint: string, schema: string) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
    id,
    name: id,
    endpoint,
    schema,
    meta: { resourceType: 'ResourceType', location: `${base(config)}/ResourceTypes/${id}` },
  });
  return listResponse([type('User', '/Users', userSchema), type('Group', '/Groups', groupSchema)], 2, 1);
}

const attribute = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

export function schemas(config: Config) {
  const schema = (id: string, name: string, attributes: unknown[]) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
    id,
    name,
    attributes,
    meta: { resourceType: 'Schema', location: `${base(config)}/Schemas/${id}` },
  });
  const multi = (name: string) =>
    attribute(name, 'complex', {
      multiValued: true,
      subAttributes: [attribute('value', 'string'), attribute('type', 'string'), attribute('primary', 'boolean')],
    });
  const user = schema(userSchema, 'User', [
    attribute('userName', 'string', { required: true, uniqueness: 'server' }),
    attribute('displayName', 'string'),
    attribute('name', 'complex', {
      subAttributes: [
        attribute('formatted', 'string'),
        attribute('givenName', 'string'),
        attribute('familyName', 'string'),
      ],
    }),
    attribute('title', 'string'),
    attribute('active', 'boolean'),
    multi('emails'),
    multi('phoneNumbers'),
  ]);
  const group = schema(groupSchema, 'Group', [
    attribute('displayName', 'string', { required: true }),
    attribute('members', 'complex', {
      multiValued: true,
      subAttributes: [
        attribute('value', 'string', { mutability: 'immutable' }),
        attribute('display', 'string', { mutability: 'readOnly' }),
      ],
    }),
  ]);
  return listResponse([user, group], 2, 1);
}
