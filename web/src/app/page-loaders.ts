// The pages loaded on demand, one loader each: the routes render them lazily, and a step that is about to move
// there can load its page first, so that the address and the screen change together (React keeps the previous
// screen on view while a page of a navigation is still loading).
export const loadTwoFactorPage = () => import('../pages/two-factor/two-factor-page');
export const loadForgotPasswordPage = () => import('../pages/forgot-password/forgot-password-page');
export const loadNewPasswordPage = () => import('../pages/new-password/new-password-page');
export const loadSsoReturnPage = () => import('../pages/sso-return/sso-return-page');
export const loadPasskeyOfferPage = () => import('../pages/passkey-offer/passkey-offer-page');
export const loadAccountPage = () => import('../pages/account/account-page');
