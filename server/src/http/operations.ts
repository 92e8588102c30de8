// Types that tie every handler to its operation in the generated contract: a missing or extra handler, an
// undeclared status or a body of the wrong shape fails `npm run typecheck`.
import type { Request, Response } from 'express';
import type { operations } from '../../../generated/core-api';
import type { AuthContext, SessionCaller } from '../shared/caller';

export type OperationId = keyof operations;
type Op<K extends OperationId> = operations[K];

type Part<T, P extends string> = T extends { [Q in P]?: infer V }
  ? [V] extends [never]
    ? undefined
    : NonNullable<V>
  : undefined;
type RequestContent<K extends OperationId> =
  Op<K> extends { requestBody: { content: infer C } }
    ? C[keyof C]
    : Op<K> extends { requestBody?: { content: infer C } }
      ? C[keyof C] | undefined
      : undefined;

type SuccessStatus = 200 | 201 | 202 | 204 | 302;
type ResponseOf<R, S extends keyof R> = R[S] extends { content: infer C }
  ? [C] extends [never]
    ? { status: S; headers?: Record<string, string> }
    : { status: S; headers?: Record<string, string>; contentType?: keyof C & string; body: C[keyof C] }
  : { status: S; headers?: Record<string, string> };

export type HandlerResult<K extends OperationId> = {
  [S in Extract<keyof Op<K>['responses'], SuccessStatus>]: ResponseOf<Op<K>['responses'], S>;
}[Extract<keyof Op<K>['responses'], SuccessStatus>];

/**
 * The operations a session may call while a factor is unverified (http/auth.ts): its own challenges and its logout.
 * Only their caller may be a single sign-on session that is bound to no user yet.
 */
export const pendingOperations = ['createSessionChallenge', 'verifySessionChallenge', 'deleteSession'] as const;
export type PendingOperationId = (typeof pendingOperations)[number];

export interface HandlerContext<K extends OperationId> {
  path: Part<Op<K>['parameters'], 'path'>;
  query: Part<Op<K>['parameters'], 'query'>;
  body: RequestContent<K>;
  /** The signed-in caller, for operations with bearer security. */
  auth: (K extends PendingOperationId ? SessionCaller : AuthContext) | null;
  /** The tenant of `cosafe-tenant-id`, checked against the caller's memberships. */
  tenantId: number | null;
  req: Request;
  res: Response;
}

export type Handler<K extends OperationId> = (ctx: HandlerContext<K>) => Promise<HandlerResult<K>>;
export type HandlerMap = { [K in OperationId]: Handler<K> };
export type PartialHandlers<K extends OperationId> = { [P in K]: Handler<P> };

/** Narrow helpers for handlers that need a signed-in caller or a tenant. */
export function requireAuth<Caller extends SessionCaller | AuthContext>(ctx: { auth: Caller | null }): Caller {
  if (!ctx.auth) throw new Error('operation is missing bearer security in the contract');
  return ctx.auth;
}

export function requireTenant(ctx: { tenantId: number | null }): number {
  if (ctx.tenantId === null) throw new Error('operation is missing the tenant header in the contract');
  return ctx.tenantId;
}
