/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** API host of the Sweden/Europe region (eu-north-1), without /core/v1. */
  readonly VITE_API_URL_EU_NORTH_1?: string;
  /** API host of a separate se-sto region, if one is deployed; not probed when unset. */
  readonly VITE_API_URL_SE_STO?: string;
  /** API host of the Brazil region (sa-east-1). */
  readonly VITE_API_URL_SA_EAST_1?: string;
  /** Replaces the whole redirect allow-list: exact login page URLs separated by commas or whitespace. */
  readonly VITE_REDIRECT_ALLOW_LIST?: string;
  /** Development server only: the login page the bare root `/` starts a sign-in for (on the allow-list). */
  readonly VITE_DEV_START_REDIRECT_URL?: string;
}
