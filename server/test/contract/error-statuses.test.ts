// The HTTP status of every error code is written twice: in the contract's error catalogue (the table in the API
// description, what clients read) and in server/src/errors.ts (httpStatusOf, what the server sends). The two
// tables must be the same table: the same codes, each with the same status, in both directions.
import { readFileSync } from 'node:fs';
import { httpStatusOf } from '../../src/errors';
import { bundlePath } from '../../src/http/spec';

const spec = JSON.parse(readFileSync(bundlePath, 'utf8'));

/** The catalogue's rows (`| CODE | 400 |`) as code → status, failing on a code listed twice. */
function catalogue(description: string): Record<string, number> {
  const table: Record<string, number> = {};
  for (const [, code, status] of description.matchAll(/^\s*\|\s*([A-Z][A-Z0-9_]*)\s*\|\s*(\d{3})\s*\|\s*$/gm)) {
    if (code in table) throw new Error(`${code} is listed twice in the contract's error catalogue`);
    table[code] = Number(status);
  }
  return table;
}

describe('error code → HTTP status', () => {
  const contract = catalogue(spec.info.description);

  test('the contract has an error catalogue', () => {
    expect(Object.keys(contract).length).toBeGreaterThan(30);
  });

  test("the server's table equals the contract's catalogue", () => {
    expect(httpStatusOf).toEqual(contract);
  });

  test('the catalogue lists exactly the codes of the ErrorCode schema', () => {
    expect(Object.keys(contract).sort()).toEqual([...spec.components.schemas.ErrorCode.enum].sort());
  });
});
