// express-openapi-validator 5.6 compiles the path pattern of every route it scans, on every request
// (lookupRoute in middlewares/openapi.metadata.js): with this contract's paths that is a tenth of a millisecond
// of CPU per request, for matchers that never change. Upstream has the fix open (cdimascio/
// express-openapi-validator#1217, "perf: cache route matchers"); until it ships, the validator's calls to
// path-to-regexp go through this cache. Compiled matchers are plain non-global regular expressions and key lists,
// which callers only read, so sharing them changes nothing but the cost. Remove once the validator caches them.
import pathToRegexpModule = require('path-to-regexp');

type PathToRegexp = typeof pathToRegexpModule.pathToRegexp;

const limit = 2_000;
let installed = false;

export function cacheRouteMatchers(): void {
  if (installed) return;
  installed = true;
  const compile: PathToRegexp = pathToRegexpModule.pathToRegexp;
  const cache = new Map<string, ReturnType<PathToRegexp>>();
  const cached: PathToRegexp = (path, options) => {
    if (typeof path !== 'string') return compile(path, options);
    const o = (options ?? {}) as Record<string, unknown>;
    const known = Object.keys(o).every((k) => k === 'sensitive' || k === 'strict' || k === 'end' || k === 'trailing');
    if (!known) return compile(path, options);
    const key = `${o.sensitive ? 1 : 0}${o.strict ? 1 : 0}${o.end === false ? 0 : 1}${o.trailing === false ? 0 : 1}${path}`;
    let matcher = cache.get(key);
    if (!matcher) {
      matcher = compile(path, options);
      if (cache.size < limit) cache.set(key, matcher);
    }
    return matcher;
  };
  (pathToRegexpModule as { pathToRegexp: PathToRegexp }).pathToRegexp = cached;
}
