// jsdom has no fetch API, and its crypto has no `subtle`. openapi-fetch needs Request/Response/Headers and the
// email hash needs Web Crypto, so the test window borrows Node's implementations of exactly those globals.
const { TestEnvironment } = require('jest-environment-jsdom');
const { webcrypto } = require('node:crypto');

const borrowed = [
  'fetch',
  'Request',
  'Response',
  'Headers',
  'FormData',
  'ReadableStream',
  'TextEncoder',
  'TextDecoder',
  'structuredClone',
];

class JsdomWithFetchEnvironment extends TestEnvironment {
  async setup() {
    await super.setup();
    for (const name of borrowed) {
      if (typeof globalThis[name] !== 'undefined') this.global[name] = globalThis[name];
    }
    Object.defineProperty(this.global, 'crypto', { value: webcrypto, configurable: true });
  }
}

module.exports = JsdomWithFetchEnvironment;
