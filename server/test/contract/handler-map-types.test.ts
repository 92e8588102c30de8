// The typed handler map is what keeps the server in step with the contract. These checks compile small
// programs against the real types: a missing handler, an extra handler or a wrong answer must not compile.
import { join } from 'node:path';
import ts from 'typescript';

const serverDir = join(__dirname, '..', '..');

const options: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.Node16,
  moduleResolution: ts.ModuleResolutionKind.Node16,
  esModuleInterop: true,
  types: ['node'],
};

/**
 * Each probe's errors, the probes compiled as files of one program (src/__type_probe_N__.ts, never written to disk):
 * the server's types are loaded and checked once for all of them rather than once per probe, and only the probes'
 * own diagnostics are computed, which is all the tests read.
 */
function compileAll(sources: string[]): string[][] {
  const files = sources.map((_, index) => join(serverDir, 'src', `__type_probe_${index}__.ts`));
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  host.readFile = (file) => {
    const index = files.indexOf(file);
    return index >= 0 ? sources[index] : readFile(file);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (file) => files.includes(file) || fileExists(file);
  const program = ts.createProgram(files, options, host);
  return files.map((file) => {
    const source = program.getSourceFile(file)!;
    return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((d) =>
      ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    );
  });
}

const header = `
import type { HandlerMap, Handler } from './http/operations';
import { moduleHandlers } from './modules/registry';
import type { Services } from './services';
declare const services: Services;
const handlers = moduleHandlers(services);
`;

const probes = {
  realMap: `${header}\nconst all: HandlerMap = handlers;\nvoid all;`,
  removedHandler: `${header}\nconst { listTenants: _removed, ...rest } = handlers;\nconst all: HandlerMap = rest;\nvoid all;`,
  unknownOperation: `${header}
import type { PartialHandlers } from './http/operations';
const area: PartialHandlers<'listTenants'> = { listTenants: handlers.listTenants, listUnicorns: async () => ({ status: 200, body: [] }) };
void area;`,
  wrongAnswers: `${header}
const wrongStatus: Handler<'listTenants'> = async () => ({ status: 201, body: { data: [], pagination: { totalCount: 0, offset: 0, limit: 10 } } });
const wrongBody: Handler<'listTenants'> = async () => ({ status: 200, body: { data: [{ id: 1 }], pagination: { totalCount: 0, offset: 0, limit: 10 } } });
const right: Handler<'listTenants'> = async () => ({ status: 200, body: { data: [], pagination: { totalCount: 0, offset: 0, limit: 10 } } });
void wrongStatus; void wrongBody; void right;`,
};
type Probe = keyof typeof probes;
let errorsOf: Record<Probe, string[]>;
beforeAll(() => {
  const names = Object.keys(probes) as Probe[];
  const errors = compileAll(names.map((name) => probes[name]));
  errorsOf = Object.fromEntries(names.map((name, index) => [name, errors[index]])) as Record<Probe, string[]>;
}, 120_000);

describe('the operation → handler map', () => {
  test('the real map compiles', () => {
    expect(errorsOf.realMap).toEqual([]);
  });

  test('removing a handler fails the type check', () => {
    expect(errorsOf.removedHandler.join('\n')).toMatch(/listTenants/);
  });

  test('a handler for an operation the contract does not have fails the type check', () => {
    expect(errorsOf.unknownOperation.join('\n')).toMatch(/listUnicorns/);
  });

  test('an answer with an undeclared status or a wrong body fails the type check', () => {
    expect(errorsOf.wrongAnswers).toHaveLength(2);
  });
});
