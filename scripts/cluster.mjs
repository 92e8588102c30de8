#!/usr/bin/env node
// `npm run cluster [-- N]`: a private PostgreSQL server, N (default 3) instances of a region on it, and HAProxy in
// front health-checked on /readyz, all on the production build (`npm run build` first). Fixed ports: HAProxy on
// CLUSTER_PORT (8400), its statistics page on CLUSTER_PORT + 1, instance n on CLUSTER_PORT + 10 + n (8411, 8412,
// 8413); CLUSTER_PORT=0 takes free ports (the tests, which run beside each other; they also run the sources,
// CLUSTER_BUILD=source, so `npm test` needs no build). Prints the URL; Ctrl-C stops
// everything and removes its temporary folders. DATABASE_URL (a database of your own) replaces the private server.
import { startCluster } from './prove/cluster.mjs';

const instances = Math.max(1, Number(process.argv[2] ?? process.env.INSTANCES ?? 3));
const basePort = Number(process.env.CLUSTER_PORT ?? 8400) || undefined;
const cluster = await startCluster({
  instances,
  databaseUrl: process.env.DATABASE_URL || undefined,
  log: (line) => console.log(line),
  basePort,
  build: process.env.CLUSTER_BUILD === 'source' ? 'source' : 'dist',
});
for (const [n, node] of cluster.instances.entries()) console.log(`instance i${n + 1} pid ${node.pid} ${node.baseUrl}`);
console.log(
  `\ncluster ready: ${cluster.url}  (${instances} instances, HAProxy stats at ${cluster.statsUrl}); Ctrl-C stops it`,
);
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  console.log('\nstopping the cluster…');
  await cluster.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
