// CPU per sign-in against one argon2id verify, the same way for the region and for Better Auth: a few seconds
// of sign-ins to warm the JIT, then five rounds, each with a verify measured in this process right before and
// right after its sign-ins (the machine's speed drifts from minute to minute on a shared host); the round with
// the median ratio is reported, with the range.
import { availableParallelism } from 'node:os';
import argon2 from 'argon2';
import { passwordHashOptions } from '../src/security/passwords';
import type { ChildProcess } from 'node:child_process';
import { roundTripsOf } from './costs';
import type { LoadResult } from './load';
import { cpuMillis, cpuSplitMillis } from './processes';

const password = 'Demo-Password-1!';

/** CPU per argon2id verify, `concurrency` at a time (the region runs one per core while logins queue). */
export async function argon2VerifyCpuMs(concurrency = 1): Promise<number> {
  const stored = await argon2.hash(password, passwordHashOptions);
  const n = 40;
  const before = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = 0; i < n / concurrency; i++) await argon2.verify(stored, password);
    }),
  );
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / n;
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);

/**
 * `run` drives sign-ins for one round and answers its load result; `signIns` counts the completed sign-ins in
 * it. Answers the median round's result and a note with the ratio. With the region's process (`child`, forked), it
 * also answers the database statements per sign-in (each one round trip), counted over the same round; requests
 * that did not complete a sign-in are counted in with it, so the figure is an upper bound at low error counts.
 */
export async function signInCost(
  pid: number,
  run: (warmUp: boolean) => Promise<LoadResult>,
  signIns: (result: LoadResult) => number,
  roundCount = 5,
  child?: ChildProcess,
) {
  await run(true);
  const rounds = [];
  for (let i = 0; i < roundCount; i++) {
    const argonBefore = await argon2VerifyCpuMs();
    const cpu0 = cpuMillis(pid);
    const split0 = cpuSplitMillis(pid);
    const trips0 = child ? await roundTripsOf(child) : NaN;
    const result = await run(false);
    const trips = child ? await roundTripsOf(child) : NaN;
    const n = Math.max(1, signIns(result));
    const cpu = (cpuMillis(pid) - cpu0) / n;
    const split1 = cpuSplitMillis(pid);
    const argonAfter = await argon2VerifyCpuMs();
    const argonNow = (argonBefore + argonAfter) / 2;
    rounds.push({
      result,
      n,
      cpu,
      main: (split1.main - split0.main) / n,
      others: (split1.others - split0.others) / n,
      argonBefore,
      argonAfter,
      argonNow,
      ratio: cpu / argonNow,
      roundTrips: (trips - trips0) / n,
    });
  }
  const ratios = rounds.map((r) => r.ratio).sort((a, b) => a - b);
  const m = rounds.find((r) => r.ratio === ratios[(roundCount - 1) >> 1])!;
  // Two verifies side by side each cost more CPU than one alone (shared caches and memory bandwidth).
  const sideBySide = await argon2VerifyCpuMs(availableParallelism());
  const note =
    `${fmt(m.cpu)} ms CPU per sign-in = ${fmt(m.ratio, 2)} × one argon2id verify (median of ${roundCount} rounds, range ${fmt(ratios[0], 2)}-${fmt(ratios[roundCount - 1], 2)}; ` +
    `verify ${fmt(m.argonNow)} ms: ${fmt(m.argonBefore)} before, ${fmt(m.argonAfter)} after); main thread ${fmt(m.main)} ms, other threads ${fmt(m.others)} ms; ` +
    `${availableParallelism()} verifies side by side cost ${fmt(sideBySide)} ms each (${fmt(m.cpu / sideBySide, 2)} × that)`;
  const trips = rounds.map((r) => r.roundTrips).sort((a, b) => a - b);
  return {
    result: { ...m.result, perSecond: m.n / m.result.seconds },
    note,
    ratio: m.ratio,
    /** Statements per sign-in, the median of the rounds (NaN without the region's process). */
    roundTrips: trips[(roundCount - 1) >> 1],
  };
}
