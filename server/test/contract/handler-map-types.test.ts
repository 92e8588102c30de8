// The typed handler map is what keeps the server in step with the contract. These checks compile small
// programs against the real types: a missing handler, an extra handler or a wrong answer must not compile.
import { join } from 'node:path';
import ts from 'typescript';

const serverDir = join(__dirname, '..', '..');
const probeFile = join(serverDir, 'src', '__type_probe__.ts');

function compile(source: string): string[] {
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
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  host.readFile = (file) => (file === probeFile ? source : readFile(file));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (file) => file === probeFile || fileExists(file);
  const program = ts.createProgram([probeFile], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file?.fileName === probeFile)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

const header = `
import type { HandlerMap, Handler } from './http/operations';
import { moduleHandlers } from './modules/registry';
import type { Services } from './services';
declare const services: Services;
const handlers = moduleHandlers(services);
`;

describe('the operation → handler map', () => {
  test('the real map compiles', () => {
    expect(compile(`${header}\nconst all: HandlerMap = handlers;\nvoid all;`)).toEqual([]);
  }, 60_000);

  test('removing a handler fails the type check', () => {
    const errors = compile(
      `${header}\nconst { listTenants: _removed, ...rest } = handlers;\nconst all: HandlerMap = rest;\nvoid all;`,
    );
    expect(errors.join('\n')).toMatch(/listTenants/);
  }, 60_000);

  test('a handler for an operation the contract does not have fails the type check', () => {
    const errors = compile(`${header}
import type { PartialHandlers } from './http/operations';
const area: PartialHandlers<'listTenants'> = { listTenants: handlers.listTenants, listUnicorns: async () => ({ status: 200, body: [] }) };
void area;`);
    expect(errors.join('\n')).toMatch(/listUnicorns/);
  }, 60_000);

  test('an answer with an undeclared status or a wrong body fails the type check', () => {
    const errors = compile(`${header}
const wrongStatus: Handler<'listTenants'> = async () => ({ status: 201, body: { data: [], pagination: { totalCount: 0, offset: 0, limit: 10 } } });
const wrongBody: Handler<'listTenants'> = async () => ({ status: 200, body: { data: [{ id: 1 }], pagination: { totalCount: 0, offset: 0, limit: 10 } } });
const right: Handler<'listTenants'> = async () => ({ status: 200, body: { data: [], pagination: { totalCount: 0, offset: 0, limit: 10 } } });
void wrongStatus; void wrongBody; void right;`);
    expect(errors).toHaveLength(2);
  }, 60_000);
});
