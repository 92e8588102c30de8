// The floor for the database's side of an authenticated GET /tenants: the same statements the region sends,
// named and prepared, from a plain connection pool in this process, with no HTTP, no validator and no handler.
// What PostgreSQL spends on these is what it must spend; the region's figure is compared with it.
import { openDatabase, type DatabaseHandle } from '../src/db/database';
import { selectCallerSession } from '../src/http/auth.repository';
import { selectTenantsOfUser } from '../src/modules/tenants/tenants.repository';
import { percentile, type LoadResult } from './load';

export class BareTenantsGet {
  private constructor(
    private readonly database: DatabaseHandle,
    private readonly session: { sessionId: string; userId: number },
    private readonly connections: number,
  ) {}

  /**
   * Opens the pool and runs the statements for a second (each connection prepared, the JIT warm). As many
   * connections as the region's pool, each kept as busy, so the backends wake as often per statement.
   */
  static async open(
    url: string,
    session: { sessionId: string; userId: number },
    connections = 10,
  ): Promise<BareTenantsGet> {
    const bare = new BareTenantsGet(await openDatabase({ url, poolSize: connections }), session, connections);
    await bare.run(1_000);
    return bare;
  }

  private async once(): Promise<void> {
    const [session] = await selectCallerSession(
      this.database.db,
      { sessionId: this.session.sessionId, tenantId: -1 },
      { tenantScoped: false },
    );
    if (!session) throw new Error('the benchmark session is missing');
    await selectTenantsOfUser(this.database.db, { userId: this.session.userId, limit: 10, offset: 0 });
  }

  /** Closed loops, one per connection, for `durationMs`; one "request" is the GET's statements once. */
  async run(durationMs: number): Promise<LoadResult> {
    const latencies: number[] = [];
    const started = performance.now();
    const deadline = started + durationMs;
    await Promise.all(
      Array.from({ length: this.connections }, async () => {
        while (performance.now() < deadline) {
          const t0 = performance.now();
          await this.once();
          latencies.push(performance.now() - t0);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    return {
      requests: latencies.length,
      errors: 0,
      seconds,
      perSecond: latencies.length / seconds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      statuses: {},
    };
  }

  close(): Promise<void> {
    return this.database.close();
  }
}
