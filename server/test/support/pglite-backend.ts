// The test files of this Jest project open PGlite even when TEST_DATABASE_URL is set (see jest.config.ts).
process.env.CORE_TEST_BACKEND = 'pglite';
