// SCIM discovery (RFC 7643 sections 5-7): what this service supports, its resource types and their schemas
// limited to the attributes it keeps.
import type { Config } from '../../config';
import { listResponse } from './scim-filter';

export const userSchema = 'urn:ietf:params:scim:schemas:core:2.0:User' as const;
export const groupSchema = 'urn:ietf:params:scim:schemas:core:2.0:Group' as const;

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

const resourceType = (config: Config, id: 'User' | 'Group') => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType' as const],
  id,
  name: id,
  endpoint: id === 'User' ? ('/Users' as const) : ('/Groups' as const),
  schema: id === 'User' ? userSchema : groupSchema,
  meta: { resourceType: 'ResourceType' as const, location: `${base(config)}/ResourceTypes/${id}` },
});

export const resourceTypes = (config: Config) =>
  listResponse([resourceType(config, 'User'), resourceType(config, 'Group')], 2, 1);

/** One resource type by its id as written (RFC 7644 section 4); undefined for any other. */
export const findResourceType = (config: Config, id: string) =>
  id === 'User' || id === 'Group' ? resourceType(config, id) : undefined;

type Mutability = 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
interface Attribute {
  name: string;
  type: 'string' | 'boolean' | 'reference' | 'complex';
  multiValued: boolean;
  description: string;
  required: boolean;
  caseExact: boolean;
  mutability: Mutability;
  returned: 'always' | 'never' | 'default' | 'request';
  uniqueness: 'none' | 'server' | 'global';
  canonicalValues?: string[];
  referenceTypes?: string[];
  subAttributes?: Attribute[];
}

const attribute = (
  name: string,
  type: Attribute['type'],
  description: string,
  extra: Partial<Attribute> = {},
): Attribute => ({
  name,
  type,
  multiValued: false,
  description,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

/** The attributes of each resource exactly as this service keeps them (the discovery tests hold them to it). */
export const userAttributes: Attribute[] = [
  attribute('userName', 'string', 'The email address the user signs in with.', {
    required: true,
    uniqueness: 'server',
  }),
  attribute('name', 'complex', "The parts of the user's name, as the directory sent them.", {
    subAttributes: [
      attribute('formatted', 'string', 'The full name; when not sent, given and family name.'),
      attribute('givenName', 'string', 'Given name.'),
      attribute('familyName', 'string', 'Family name.'),
    ],
  }),
  attribute(
    'displayName',
    'string',
    'The name the platform shows; when not sent or removed, name.formatted, else given and family name, else userName.',
  ),
  attribute('title', 'string', 'Job title.'),
  attribute('active', 'boolean', 'False: deactivated in this tenant. When not sent or removed, true.'),
  attribute('emails', 'complex', 'The userName, as the one work email; values sent are ignored.', {
    multiValued: true,
    mutability: 'readOnly',
    subAttributes: [
      attribute('value', 'string', 'The address.', { mutability: 'readOnly' }),
      attribute('type', 'string', 'Always work.', { mutability: 'readOnly', canonicalValues: ['work'] }),
      attribute('primary', 'boolean', 'Always true.', { mutability: 'readOnly' }),
    ],
  }),
  attribute(
    'phoneNumbers',
    'complex',
    'At most two numbers, in E.164 (+ and up to 15 digits): the mobile (or primary) one and one other; others are not kept.',
    {
      multiValued: true,
      subAttributes: [
        attribute('value', 'string', 'The number.'),
        attribute('type', 'string', 'mobile for the first, other for the second.', {
          canonicalValues: ['mobile', 'other'],
        }),
        attribute('primary', 'boolean', 'True for the mobile number.'),
      ],
    },
  ),
];

export const groupAttributes: Attribute[] = [
  attribute('displayName', 'string', "The group's name. It may be replaced, not removed.", { required: true }),
  attribute('members', 'complex', 'Users of the tenant in the group.', {
    multiValued: true,
    subAttributes: [
      attribute('value', 'string', "The user's SCIM id.", { mutability: 'immutable' }),
      attribute('$ref', 'reference', 'The URI of the user; the service answers it from value.', {
        mutability: 'immutable',
        referenceTypes: ['User'],
      }),
      attribute('display', 'string', "The user's displayName.", { mutability: 'readOnly' }),
    ],
  }),
];

const schema = (config: Config, which: 'User' | 'Group') => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema' as const],
  id: which === 'User' ? userSchema : groupSchema,
  name: which,
  description: which === 'User' ? 'A user of the tenant.' : "A group the tenant's directory provisioned.",
  attributes: which === 'User' ? userAttributes : groupAttributes,
  meta: {
    resourceType: 'Schema' as const,
    location: `${base(config)}/Schemas/${which === 'User' ? userSchema : groupSchema}`,
  },
});

export const schemas = (config: Config) => listResponse([schema(config, 'User'), schema(config, 'Group')], 2, 1);

/** One schema by its URN, compared case-insensitively (RFC 7643 section 2.1); undefined for any other. */
export function findSchema(config: Config, urn: string) {
  const id = urn.toLowerCase();
  if (id === userSchema.toLowerCase()) return schema(config, 'User');
  if (id === groupSchema.toLowerCase()) return schema(config, 'Group');
  return undefined;
}
