/* The network part of the login screen, loaded when the user first submits (see pages/login). */
export { probeRegions } from './probe-regions';
export { signInAt } from './sign-in';
