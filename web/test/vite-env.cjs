// Stands in for web/src/config/vite-env.ts (which reads import.meta.env, a syntax Jest's CommonJS runtime lacks):
// tests run with the development defaults.
module.exports = { viteEnv: { DEV: true, PROD: false, MODE: 'test' } };
