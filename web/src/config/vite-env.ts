// The only reader of import.meta.env (Jest maps this module to web/test/vite-env.cjs).
export interface ViteEnv {
  DEV: boolean;
  PROD?: boolean;
  MODE?: string;
  VITE_API_URL_EU_NORTH_1?: string;
  VITE_API_URL_SE_STO?: string;
  VITE_API_URL_SA_EAST_1?: string;
  VITE_REDIRECT_ALLOW_LIST?: string;
  VITE_DEV_START_REDIRECT_URL?: string;
}

export const viteEnv: ViteEnv = import.meta.env;
