// An independent check of answers against the contract (Ajv, JSON Schema 2020-12, formats), besides the app's own
// response validation: a drift between an answer and its schema fails here even where the app would not see it.
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { bundle, type Operation } from './contract';

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
ajv.addFormat('int64', true);
ajv.addSchema({ $id: 'core', components: bundle().components });

const compiled = new Map<string, ValidateFunction>();

/** Problems of `body` as the answer `status` of `op`, or null when it matches (or the answer has no JSON body). */
export function responseProblem(op: Operation, status: number, contentType: string, body: unknown): string | null {
  const declared = op.responses[String(status)] ?? op.responses.default;
  if (declared === undefined) return `status ${status} is not declared`;
  if (declared === null) return null;
  if (!/json/.test(declared.contentType) || !/json/.test(contentType)) return null;
  const key = `${op.operationId}:${status}`;
  let validate = compiled.get(key);
  if (!validate) {
    const schema = JSON.parse(JSON.stringify(declared.schema).replace(/"#\/components\//g, '"core#/components/'));
    validate = ajv.compile(schema);
    compiled.set(key, validate);
  }
  return validate(body) ? null : ajv.errorsText(validate.errors, { separator: '; ' }).slice(0, 500);
}
