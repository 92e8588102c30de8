// Single sign-on (OIDC, SAML, Skolon): the module's public face.
export type { SsoDeps } from './sso.deps';
export { ssoHandlers, ssoSignIn } from './sso.handlers';
export { configureSaml, routeSsoDomain } from './sso.setup';
