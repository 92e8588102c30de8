const t0 = Date.now();
const { PGlite } = require('@electric-sql/pglite');
(async () => {
  const db = await PGlite.create();
  console.log('create', Date.now() - t0, 'ms', Math.round(process.memoryUsage().rss/1e6), 'MB');
  const r = await db.query('select 1 as x');
  console.log(r.rows, Date.now() - t0);
  const t1 = Date.now();
  const dump = await db.dumpDataDir('none');
  console.log('dump', Date.now()-t1, dump.size);
  const t2 = Date.now();
  const db2 = await PGlite.create({ loadDataDir: dump });
  console.log('load', Date.now()-t2, Math.round(process.memoryUsage().rss/1e6), 'MB');
  const t3 = Date.now();
  const db3 = await db.clone();
  console.log('clone', Date.now()-t3, Math.round(process.memoryUsage().rss/1e6), 'MB');
})();
