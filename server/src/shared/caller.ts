// The caller, as the domain sees it: who signed in, which factors of the session are proven, and (for tenant-scoped
// operations) what the caller may do in the request's tenant. http/auth.ts builds it from the access token; services
// receive it.

/** The factors of a session and whether each is proven (`password`, `otpEmail`, `oidc`, ...). */
export type Factors = Record<string, 'verified' | 'unverified'>;
export type Permissions = Record<string, Record<string, boolean | number | null>>;

export interface AuthContext {
  userId: number;
  sessionId: string;
  factors: Factors;
  /**
   * When the session last proved the account's credentials (a sign-in's factor or a re-authentication; a refresh
   * is none), read with the session on every request; null when it never did. Changing a factor asks for a recent one.
   */
  provenAt?: Date | null;
  /** Permission flags in the request's tenant (loaded once per request for tenant-scoped operations). */
  permissions: Permissions | null;
  /** Whether the caller administers the request's tenant (tenant-scoped operations only). */
  tenantAdmin?: boolean;
}

/**
 * The caller of the operations a session may call before its factors are verified (its own challenges and its
 * logout). A single sign-on session is bound to no user (`userId` null) until the identity provider answers; it
 * knows only the tenant whose identity provider it waits for.
 */
export interface SessionCaller extends Omit<AuthContext, 'userId'> {
  userId: number | null;
  /** Single sign-on: the tenant the session was opened for (the email domain's); null for other sessions. */
  ssoTenantId: number | null;
}
