// The event loop before the hashing (security/thread-priority.ts): on Linux, libuv's pool threads, where argon2
// hashes, run at a lower priority than the event loop, so a wave of sign-ins does not take CPU time from the
// requests of signed-in users. Measured in a child process, so the test runner's own pool keeps its priority.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const linux = process.platform === 'linux';
const root = join(__dirname, '..', '..', '..');

function inChild(nice: number) {
  const script = `
    import { getPriority } from 'node:os';
    import { hashPassword } from './server/src/security/passwords';
    import { lowerThreadPoolPriority, niceOf, threadPoolThreads } from './server/src/security/thread-priority';
    await hashPassword('a password to start the pool');
    const threads = await threadPoolThreads();
    const mainBefore = getPriority();
    const changed = await lowerThreadPoolPriority(${nice});
    const nices = await Promise.all(threads.map(niceOf));
    const hashed = await hashPassword('still hashes');
    console.log(JSON.stringify({ threads: threads.length, changed, nices, mainBefore, mainAfter: await niceOf(process.pid), hashed }));
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    env: { ...process.env, UV_THREADPOOL_SIZE: '4' },
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').pop()!) as {
    threads: number;
    changed: number;
    nices: number[];
    mainBefore: number;
    mainAfter: number;
    hashed: string;
  };
}

(linux ? describe : describe.skip)('libuv pool threads on Linux', () => {
  test('every pool thread is found, and each one, not the event loop, gets the nice value', () => {
    const r = inChild(10);
    expect(r.threads).toBe(4);
    expect(r.changed).toBe(4);
    expect(r.nices).toEqual([10, 10, 10, 10]);
    // The main thread (the event loop) keeps its priority, and hashing still works on the lowered threads.
    expect(r.mainAfter).toBe(r.mainBefore);
    expect(r.hashed).toMatch(/^\$argon2id\$/);
  });

  test('0 leaves the pool as it is', () => {
    const r = inChild(0);
    expect(r.changed).toBe(0);
    expect(r.nices).toEqual([r.mainBefore, r.mainBefore, r.mainBefore, r.mainBefore]);
  });
});
