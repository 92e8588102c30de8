// A valid request for any operation of the contract against the world of one tenant, a way to send a request
// described as data (so suites can mutate it), and the checks every error answer must pass.
import { createHash, randomUUID } from 'node:crypto';
import request from 'supertest';
import type { Express } from 'express';
import type { Operation } from './contract';
import type { TenantWorld } from './world';

export interface Req {
  method: Operation['method'];
  /** Path with the values filled in and already URL-encoded where needed. */
  path: string;
  query: Record<string, string | string[]>;
  /** Extra query text appended as is (for raw, malformed or repeated parameters). */
  rawQuery?: string;
  headers: Record<string, string>;
  /** A JSON value, or a raw string sent as is with `contentType`. */
  body?: unknown;
  rawBody?: string;
  contentType?: string;
}

export interface Caller {
  userId: number;
  sessionId: string;
  accessToken: string;
  refreshToken: string;
}

const clone = <T>(value: T): T => (value === undefined ? value : structuredClone(value));

/** The value of a path parameter that names a real thing of the tenant. */
export function pathValue(op: Operation, name: string, w: TenantWorld, caller: Caller): string {
  // Delete operations get the tenant's spare things, so the rest of a run still finds the originals.
  if (op.method === 'delete') {
    const spare: Record<string, string | number> = {
      apiKeyId: w.spare.apiKeyId,
      contactId: w.spare.contactId,
      scimUserId: w.spare.scimUserId,
      scimGroupId: w.spare.scimGroupId,
    };
    if (name in spare) return encodeURIComponent(String(spare[name]));
    if (name === 'id' && op.path.startsWith('/push-tokens')) return encodeURIComponent(w.spare.pushToken);
  }
  if (name === 'id') {
    if (op.path.startsWith('/sessions')) return caller.sessionId;
    if (op.path.startsWith('/push-tokens')) return encodeURIComponent(w.pushToken);
    if (op.path.startsWith('/personal-alarms')) return String(w.alarmId);
  }
  const values: Record<string, string | number> = {
    userId: w.admin.id,
    groupId: w.groupId,
    apiKeyId: w.apiKey.id,
    contactId: w.contactId,
    messageId: w.messageId,
    scimUserId: w.scimUserId,
    scimGroupId: w.scimGroupId,
    hash: createHash('sha256').update(w.admin.email).digest('hex'),
    idpDomain: 'sso.example.test',
    resourceTypeId: 'User',
    schemaUrn: 'urn:ietf:params:scim:schemas:core:2.0:User',
    // The caller has no passkey: renaming or deleting this one answers 404, which is what a valid request may.
    passkeyId: '3f2c7a9e-1b4d-4e6f-8a0b-2c4d6e8f0a1b',
    // No session of the member has this id: ending it answers 404, which is what a valid request may.
    sessionId: '7b1e4c2a-9d3f-4a5b-8c6d-0e1f2a3b4c5d',
  };
  if (!(name in values)) throw new Error(`no world value for path parameter ${name} of ${op.operationId}`);
  return encodeURIComponent(String(values[name]));
}

/** A request body that passes the contract, from the contract's own example with the world's ids in it. */
export function validBody(op: Operation, w: TenantWorld): unknown {
  if (!op.body) return undefined;
  const example = clone(op.body.examples[0]) as any;
  switch (op.operationId) {
    case 'createSession':
      return { grantType: 'password', email: w.admin.email, password: 'Not-The-Password-1!' };
    case 'createContact':
      return { ...example, accountId: w.accountId };
    case 'sendCecMessage':
      return { ...example, externalCommunicationGroupIds: [w.externalGroupId] };
    case 'createPersonalAlarm':
      return {
        ...example,
        sender: { userId: w.admin.id, deviceId: `device-${randomUUID()}` },
        dispatchAt: new Date(Date.now() + 7_200_000).toISOString(),
        recipientUserIds: [w.member.id],
        groupIds: [w.groupId],
      };
    case 'updatePersonalAlarm':
      return { text: 'A longer visit.', recipientUserIds: [w.member.id] };
    case 'createScimUser':
    case 'replaceScimUser':
      return {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: `scim-${randomUUID()}@example.test`,
        active: true,
      };
    case 'createScimGroup':
    case 'replaceScimGroup':
      return {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
        displayName: `Group ${randomUUID()}`,
        members: [],
      };
    default:
      if (example === undefined) throw new Error(`no example body for ${op.operationId}`);
      return example;
  }
}

export function validRequest(op: Operation, w: TenantWorld, caller: Caller): Req {
  const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => pathValue(op, name, w, caller));
  const headers: Record<string, string> = {};
  const query: Record<string, string> = {};
  for (const p of op.parameters) {
    if (p.in === 'header' && p.name === 'cosafe-core-api-version') headers[p.name] = '1';
    if (p.in === 'header' && p.name === 'cosafe-tenant-id') headers[p.name] = String(w.tenantId);
    // A password link's token (never in the URL): one of the right shape that no link has.
    if (p.in === 'header' && p.name === 'cosafe-password-token') headers[p.name] = 'x'.repeat(43);
    // "End all other sessions" takes `others=true`, its only value.
    if (p.in === 'query' && p.required && op.operationId === 'deleteOtherSessions' && p.name === 'others')
      query[p.name] = 'true';
    else if (p.in === 'query' && p.required)
      throw new Error(`no value for required query parameter ${p.name} of ${op.operationId}`);
  }
  if (op.security.includes('accessToken')) headers.authorization = `Bearer ${caller.accessToken}`;
  if (op.security.includes('refreshToken')) headers.authorization = `Bearer ${caller.refreshToken}`;
  if (op.security.includes('scimApiKey')) headers.authorization = `Bearer ${w.apiKey.key}`;
  const req: Req = { method: op.method, path: `${op.base}${path}`, query, headers };
  if (op.body) {
    req.contentType = op.body.contentType;
    req.body =
      op.operationId === 'consumeSamlAssertion'
        ? {
            SAMLResponse: Buffer.from('<samlp:Response/>').toString('base64'),
            RelayState: 'http://localhost:5173/login/sso',
          }
        : validBody(op, w);
  }
  return req;
}

export function send(app: Express, req: Req): request.Test {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(req.query)) for (const item of Array.isArray(v) ? v : [v]) search.append(k, item);
  const qs = [search.toString(), req.rawQuery ?? ''].filter(Boolean).join('&');
  let test = (request(app) as any)[req.method](`${req.path}${qs ? `?${qs}` : ''}`) as request.Test;
  for (const [k, v] of Object.entries(req.headers)) test = test.set(k, v);
  if (req.rawBody !== undefined)
    return test.set('content-type', req.contentType ?? 'application/json').send(req.rawBody);
  if (req.body !== undefined) {
    if (req.contentType === 'application/x-www-form-urlencoded')
      return test.type('form').send(req.body as Record<string, string>);
    return test.set('content-type', req.contentType ?? 'application/json').send(JSON.stringify(req.body));
  }
  return test;
}

/** What is wrong with an error answer, or null: the platform envelope, or SCIM's error shape under /scim. */
export function envelopeProblem(op: Operation, res: request.Response): string | null {
  if (res.status < 400) return null;
  const type = String(res.headers['content-type'] ?? '');
  const body = res.body as any;
  if (op.path.startsWith('/scim/')) {
    if (!/application\/scim\+json/.test(type)) return `content-type ${type}`;
    if (!Array.isArray(body?.schemas) || !body.schemas.includes('urn:ietf:params:scim:api:messages:2.0:Error'))
      return 'no SCIM error schema';
    if (body.status !== String(res.status)) return `SCIM status ${body.status} for ${res.status}`;
    return null;
  }
  if (!/application\/json/.test(type)) return `content-type ${type}`;
  if (body?.status !== 'error' || typeof body?.error !== 'object')
    return `not the error envelope: ${JSON.stringify(body).slice(0, 200)}`;
  if (body.error.httpStatus !== res.status) return `httpStatus ${body.error.httpStatus} for ${res.status}`;
  if (typeof body.error.code !== 'string' || !/^[A-Z0-9_]+$/.test(body.error.code)) return `code ${body.error.code}`;
  if (res.status >= 500 && body.error.code === 'INTERNAL_SERVER_ERROR' && JSON.stringify(body).includes(' at '))
    return 'a stack trace in the answer';
  return null;
}

/** 501 answers an operation that is still pending; anything else of 500 and above is a defect. */
export const isServerFault = (status: number) => status >= 500 && status !== 501;
