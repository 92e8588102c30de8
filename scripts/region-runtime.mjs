// How `npm start` runs a region from source (and `npm run bench` does the same to measure it): the memory bounds
// the production image has, so an idle development region costs what an idle production one does
// (docs/benchmarks.md, "Memory of `npm start`").
//
// - `--max-semi-space-size=16`: V8's young generation at most 2 × 16 MB, as in production (README, Production).
//   Left to itself V8 grows it to 2 × 64 MB while a region migrates and seeds its demo data, and keeps it: 128 MB
//   of an idle region's memory.
// - `MALLOC_MMAP_THRESHOLD_`: every argon2id hash takes 19 MiB from malloc on a thread of the hashing pool. glibc
//   serves the first from mmap, then raises its threshold to that size, so each later one comes from the thread's
//   own arena and stays resident after it is freed: some 20-35 MB per hashing thread, for good, after the demo
//   data's and the first sign-ins' hashes. A fixed threshold keeps such blocks in mmap, returned when freed.
//   (Development only: each hash then faults its 19 MiB in anew, a small cost beside argon2's own.)
export const regionExecArgv = ['--max-semi-space-size=16'];
export const regionMemoryEnv = { MALLOC_MMAP_THRESHOLD_: String(128 * 1024) };
