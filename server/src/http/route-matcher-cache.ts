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
  // One map per combination of the four options, keyed by the pattern itself: the validator passes the same
  // pattern strings every time, so a lookup hashes nothing new (a key made per call would be hashed per call).
  const caches = Array.from({ length: 16 }, () => new Map<string, ReturnType<PathToRegexp>>());
  let size = 0;
  const cached: PathToRegexp = (path, options) => {
    if (typeof path !== 'string') return compile(path, options);
    let flags = 0;
    const o = (options ?? {}) as Record<string, unknown>;
    for (const key in o) {
      if (key === 'sensitive') flags |= o.sensitive ? 1 : 0;
      else if (key === 'strict') flags |= o.strict ? 2 : 0;
      else if (key === 'end') flags |= o.end === false ? 4 : 0;
      else if (key === 'trailing') flags |= o.trailing === false ? 8 : 0;
      else return compile(path, options);
    }
    const cache = caches[flags];
    let matcher = cache.get(path);
    if (!matcher) {
      matcher = compile(path, options);
      if (size < limit) {
        cache.set(path, matcher);
        size++;
      }
    }
    return matcher;
  };
  (pathToRegexpModule as { pathToRegexp: PathToRegexp }).pathToRegexp = cached;
}
