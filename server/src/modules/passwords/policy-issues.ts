import type { Request } from 'express';
import { ApiError } from '../../errors';
import { passwordPolicyIssues } from './policy';

/** Fields that carry a new password: their schema failure becomes one issue per broken policy rule. */
const newPasswordFields: Record<string, string> = {
  setPassword: 'password',
  resetPassword: 'newPassword',
  changePassword: 'newPassword',
};

/** An error refiner (http/error-handler.ts) for this module's operations that take a new password. */
export function refineNewPasswordIssues(error: ApiError, req: Request): ApiError {
  const operationId = (req as Request & { openapi?: { schema?: { operationId?: string } } }).openapi?.schema
    ?.operationId;
  const field = operationId ? newPasswordFields[operationId] : undefined;
  const value = field ? (req.body as Record<string, unknown> | undefined)?.[field] : undefined;
  if (
    error.code !== 'BAD_REQUEST' ||
    !field ||
    typeof value !== 'string' ||
    !error.issues?.some((i) => i.path === `/${field}`)
  )
    return error;
  const policy = passwordPolicyIssues(value, `/${field}`);
  if (policy.length === 0) return error;
  return new ApiError('BAD_REQUEST', {
    message: error.message,
    issues: [...error.issues.filter((i) => i.path !== `/${field}`), ...policy],
  });
}
