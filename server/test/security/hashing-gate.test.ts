// argon2 runs behind a gate: at most `limit` hashes at once, the rest in line, first come first served.
import { Gate } from '../../src/security/passwords';

describe('Gate', () => {
  test('runs at most `limit` tasks at once and starts the waiting ones in the order they came', async () => {
    const gate = new Gate(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const releases: (() => void)[] = [];
    const results = Array.from({ length: 5 }, (_, i) =>
      gate.run(async () => {
        started.push(i);
        most = Math.max(most, ++running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running--;
        return i;
      }),
    );
    for (let released = 0; released < 5; released++) {
      await new Promise((r) => setImmediate(r));
      expect(running).toBeLessThanOrEqual(2);
      releases.shift()!();
    }
    expect(await Promise.all(results)).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4]);
  });

  test('a task that fails frees its place', async () => {
    const gate = new Gate(1);
    await expect(gate.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(gate.run(async () => 'next')).resolves.toBe('next');
  });
});
