// Jest reads `testTimeout` from the root configuration only: inside `projects` it is ignored whenever more than one
// project runs (as `npm test` does), so the browser suites set theirs here. A second-factor test waits out a real
// 30-second resend cooldown.
jest.setTimeout(120_000);
