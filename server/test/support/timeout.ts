// Jest reads `testTimeout` from the root configuration only: inside `projects` it is ignored whenever more than one
// project runs (as `npm test` does), so each project sets its own timeout here.
// Each suite builds its own database (PGlite, migrated from empty): on a machine busy with other suites that set-up
// alone has been seen to pass 30 s.
jest.setTimeout(60_000);
