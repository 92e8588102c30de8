// CPU of an access token's verification when the token is not in the cache (a client's first call with a new
// token, or more clients than the cache holds): fresh tokens, each verified once, in this process.
import { AccessTokens } from '../src/security/access-tokens';
import { generateSigningKey } from '../src/security/secrets';

export async function tokenMissMicros(rounds: number, perRound = 2000): Promise<number[]> {
  const tokens = await AccessTokens.create([await generateSigningKey('bench-1')], 'http://127.0.0.1', 900);
  const results: number[] = [];
  for (let r = 0; r <= rounds; r++) {
    const signed = await Promise.all(
      Array.from({ length: perRound }, (_, i) =>
        tokens.sign({
          userId: i + 1,
          sessionId: `00000000-0000-4000-8000-${String(r * perRound + i).padStart(12, '0')}`,
        }),
      ),
    );
    const before = process.cpuUsage();
    for (const token of signed) await tokens.verify(token);
    const used = process.cpuUsage(before);
    if (r > 0) results.push((used.user + used.system) / perRound); // round 0 warms the JIT
  }
  return results.sort((a, b) => a - b);
}
