import { lazy } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { config } from '../config/config';
import { LoginPage } from '../pages/login/login-page';
import { Layout } from './layout';
import {
  loadAccountPage,
  loadForgotPasswordPage,
  loadNewPasswordPage,
  loadPasskeyOfferPage,
  loadSsoReturnPage,
  loadTwoFactorPage,
} from './page-loaders';

// The login screen is what nearly every visit needs; the other pages load when first shown.
const TwoFactorPage = lazy(() => loadTwoFactorPage().then((m) => ({ default: m.TwoFactorPage })));
const ForgotPasswordPage = lazy(() => loadForgotPasswordPage().then((m) => ({ default: m.ForgotPasswordPage })));
const NewPasswordPage = lazy(() => loadNewPasswordPage().then((m) => ({ default: m.NewPasswordPage })));
const SsoReturnPage = lazy(() => loadSsoReturnPage().then((m) => ({ default: m.SsoReturnPage })));
const PasskeyOfferPage = lazy(() => loadPasskeyOfferPage().then((m) => ({ default: m.PasskeyOfferPage })));
// A page of a broken link: rare, so it loads on demand like the others.
const InvalidRedirectPage = lazy(() =>
  import('../pages/invalid-redirect/invalid-redirect-page').then((m) => ({ default: m.InvalidRedirectPage })),
);
const AccountPage = lazy(() => loadAccountPage().then((m) => ({ default: m.AccountPage })));
// The steps after the login form, each at its own address (its code is fetched before the form moves there).
const RegionPage = lazy(() => import('../pages/login/region-step'));
const SsoPage = lazy(() => import('../pages/login/sso-step'));
const SsoRegionPage = lazy(() => import('../pages/login/sso-step').then((m) => ({ default: m.SsoRegionPage })));
const RemovePasskeyPage = lazy(() =>
  import('../pages/remove-passkey/remove-passkey-page').then((m) => ({ default: m.RemovePasskeyPage })),
);

/**
 * Any other path goes to /login, keeping the query (a platform linking to / still passes its redirectUrl). On the
 * development server the bare root starts a sign-in for the demo calling platform, so the first URL a newcomer
 * opens leads somewhere that works.
 */
function ToLogin() {
  const { pathname, search } = useLocation();
  const start = pathname === '/' && !search ? config.devStartRedirectUrl : null;
  return (
    <Navigate
      to={{ pathname: '/login', search: start ? `?redirectUrl=${encodeURIComponent(start)}` : search }}
      replace
    />
  );
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/login/region" element={<RegionPage />} />
        <Route path="/login/sso/email" element={<SsoPage />} />
        <Route path="/login/sso/region" element={<SsoRegionPage />} />
        <Route path="/login/2fa" element={<TwoFactorPage />} />
        <Route path="/login/sso" element={<SsoReturnPage />} />
        <Route path="/login/passkey" element={<PasskeyOfferPage />} />
        <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        <Route path="/set-password" element={<NewPasswordPage linkKind="set" />} />
        <Route path="/reset-password" element={<NewPasswordPage linkKind="reset" />} />
        <Route path="/remove-passkey" element={<RemovePasskeyPage />} />
        <Route path="/account" element={<AccountPage />} />
        <Route path="/invalid-redirect" element={<InvalidRedirectPage />} />
        <Route path="*" element={<ToLogin />} />
      </Route>
    </Routes>
  );
}
