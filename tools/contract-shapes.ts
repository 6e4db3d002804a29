/**
 * What crosses the wire, read from the source of libs/contracts (this tree's, or a commit's): the
 * message patterns, the domain events, and every exported interface's and class's fields with
 * their types, whether each is required and, for a contract class, the check its decorator
 * declares. Two releases' shapes are compared by `incompatibleChanges`, which names each change a
 * process of one release could not live with beside a process of the other (docs/contributors/architecture.md,
 * "What may change between two releases").
 *
 *   npx ts-node tools/contract-shapes.ts <sha>   writes test/upgrade/contracts/<sha>.json
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export interface FieldShape {
  /** The field's type as the compiler resolves it: aliases and enums spelt out. */
  type: string;
  /** Present and not null in every message that carries the type. */
  required: boolean;
  /** A contract class's field decorator as written (`StringField({ required: true, max: 255 })`). */
  check?: string;
}

export interface ContractShapes {
  /** `PROPERTIES.CREATE` → `properties.create`: every pattern and queue constant. */
  patterns: Record<string, string>;
  /** The domain events' names (DOMAIN_EVENTS). */
  events: string[];
  /** Each exported interface and class, its fields by name. */
  types: Record<string, Record<string, FieldShape>>;
}

const ROOT = join(__dirname, '..');
const CONTRACTS = 'libs/contracts/src';
/** Where each release's snapshot is kept, named by its commit. */
export const SNAPSHOTS = join(ROOT, 'test', 'upgrade', 'contracts');
/** The objects of patterns.ts whose values are the wire's names. */
const VIRTUAL_ROOT = '/contracts/';

/** The contracts' source files of this tree, by path under libs/contracts/src, specs left out. */
export function workingTreeContracts(): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (isContractSource(name)) files.set(relative(join(ROOT, CONTRACTS), path), readFileSync(path, 'utf8'));
    }
  };
  walk(join(ROOT, CONTRACTS));
  return files;
}

/** The same files as they are at `commit`. */
export function commitContracts(commit: string): Map<string, string> {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const files = new Map<string, string>();
  for (const path of git('ls-tree', '-r', '--name-only', commit, `${CONTRACTS}/`).split('\n')) {
    if (isContractSource(path)) files.set(relative(CONTRACTS, path), git('show', `${commit}:${path}`));
  }
  return files;
}

function isContractSource(name: string): boolean {
  return name.endsWith('.ts') && !name.endsWith('.spec.ts');
}

/** Reads the shapes out of the contracts' source, typed by the compiler (nothing is run). */
export function contractShapes(files: Map<string, string>): ContractShapes {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    lib: ['lib.es2022.d.ts'],
    experimentalDecorators: true,
    strictNullChecks: true,
    types: [],
  };
  // The contracts from `files`; TypeScript's own lib from disk; every package import unresolved
  // (typed any), which no field's type depends on.
  const virtual = new Map([...files].map(([path, text]) => [VIRTUAL_ROOT + path, text]));
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  const own = (path: string) => path.startsWith(VIRTUAL_ROOT);
  host.fileExists = (path) => (own(path) ? virtual.has(path) : !path.includes('node_modules') && fileExists(path));
  host.readFile = (path) => (own(path) ? virtual.get(path) : readFile(path));
  host.getSourceFile = (path, language, ...rest) => {
    if (!own(path)) return getSourceFile(path, language, ...rest);
    const text = virtual.get(path);
    return text === undefined ? undefined : ts.createSourceFile(path, text, language, true);
  };
  const program = ts.createProgram([...virtual.keys()], options, host);
  const checker = program.getTypeChecker();
  const shapes: ContractShapes = { patterns: {}, events: [], types: {} };

  for (const source of program.getSourceFiles()) {
    if (!source.fileName.startsWith(VIRTUAL_ROOT)) continue;
    for (const statement of source.statements) {
      if (!isExported(statement)) continue;
      if (ts.isVariableStatement(statement)) readConstants(statement, source, shapes);
      if ((ts.isInterfaceDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name) {
        shapes.types[statement.name.text] = fieldsOf(statement, checker);
      }
    }
  }
  shapes.events.sort();
  return sortedKeys(shapes);
}

function isExported(statement: ts.Statement): boolean {
  return ts.canHaveModifiers(statement) && (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

/** `export const PROPERTIES = {...} as const` (patterns.ts) and `export const DOMAIN_EVENTS = [...]`. */
function readConstants(statement: ts.VariableStatement, source: ts.SourceFile, shapes: ContractShapes): void {
  for (const declaration of statement.declarationList.declarations) {
    if (!ts.isIdentifier(declaration.name) || !declaration.initializer) continue;
    const name = declaration.name.text;
    const value = withoutAsConst(declaration.initializer);
    if (name === 'DOMAIN_EVENTS' && ts.isArrayLiteralExpression(value)) {
      shapes.events.push(...value.elements.filter(ts.isStringLiteral).map((element) => element.text));
    }
    if (source.fileName.endsWith('/patterns.ts') && ts.isObjectLiteralExpression(value)) {
      for (const property of value.properties) {
        if (ts.isPropertyAssignment(property) && ts.isStringLiteral(property.initializer)) {
          shapes.patterns[`${name}.${property.name.getText(source)}`] = property.initializer.text;
        }
      }
    }
  }
}

function withoutAsConst(expression: ts.Expression): ts.Expression {
  return ts.isAsExpression(expression) || ts.isSatisfiesExpression(expression)
    ? withoutAsConst(expression.expression)
    : expression;
}

function fieldsOf(
  declaration: ts.InterfaceDeclaration | ts.ClassDeclaration,
  checker: ts.TypeChecker,
): Record<string, FieldShape> {
  const fields: Record<string, FieldShape> = {};
  // Members of what it extends count as its own: a message that extends ClientScoped carries client_id.
  const type = checker.getTypeAtLocation(declaration);
  for (const symbol of checker.getPropertiesOfType(type)) {
    const member = symbol.valueDeclaration ?? symbol.declarations?.[0];
    if (!member || !(ts.isPropertySignature(member) || ts.isPropertyDeclaration(member))) continue;
    if (ts.isPropertyDeclaration(member) && isStatic(member)) continue;
    const fieldType = checker.typeToString(
      checker.getTypeOfSymbolAtLocation(symbol, member),
      undefined,
      ts.TypeFormatFlags.NoTruncation,
    );
    const check = fieldDecorator(member);
    const optional = member.questionToken !== undefined;
    fields[symbol.name] = {
      type: fieldType,
      // A contract class's field is required when its decorator says so, whatever its `?`.
      required: check === undefined ? !optional : /\brequired:\s*true\b/.test(check),
      ...(check === undefined ? {} : { check }),
    };
  }
  return fields;
}

function isStatic(member: ts.PropertyDeclaration): boolean {
  return (ts.getModifiers(member) ?? []).some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
}

/** The first `...Field(...)` decorator of a contract class's member, whitespace collapsed. */
function fieldDecorator(member: ts.PropertySignature | ts.PropertyDeclaration): string | undefined {
  if (!ts.canHaveDecorators(member)) return undefined;
  for (const decorator of ts.getDecorators(member) ?? []) {
    const expression = decorator.expression;
    if (ts.isCallExpression(expression) && /Field$/.test(expression.expression.getText())) {
      return expression
        .getText()
        .replace(/\s+/g, ' ')
        .replace(/,\s*}/g, ' }')
        .replace(/,\s*\)/g, ')');
    }
  }
  return undefined;
}

function sortedKeys(shapes: ContractShapes): ContractShapes {
  const sort = <T>(record: Record<string, T>) =>
    Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
  const types = Object.fromEntries(Object.entries(sort(shapes.types)).map(([name, fields]) => [name, sort(fields)]));
  return { patterns: sort(shapes.patterns), events: shapes.events, types };
}

/**
 * Every change from `previous` to `current` that breaks one of them when both run side by side:
 * a pattern or event removed or renamed (the other's messages go unanswered or dead-lettered), a
 * type or field removed or retyped (a union's member taken away: an enum's value, say), a field that has become required (the other release does not
 * send it), a field's check changed (one release sends what the other refuses). Additions are
 * not listed: a new pattern, event, type, optional field or union member.
 */
export function incompatibleChanges(previous: ContractShapes, current: ContractShapes): string[] {
  const changes: string[] = [];
  for (const [name, value] of Object.entries(previous.patterns)) {
    if (!(name in current.patterns)) changes.push(`pattern ${name} ('${value}') removed`);
    else if (current.patterns[name] !== value)
      changes.push(`pattern ${name} changed from '${value}' to '${current.patterns[name]}'`);
  }
  for (const event of previous.events) {
    if (!current.events.includes(event)) changes.push(`event ${event} removed`);
  }
  for (const [typeName, fields] of Object.entries(previous.types)) {
    const now = current.types[typeName];
    if (!now) {
      changes.push(`type ${typeName} removed`);
      continue;
    }
    for (const [field, shape] of Object.entries(fields)) {
      const after = now[field];
      if (!after) changes.push(`${typeName}.${field} removed`);
      else if (!widens(shape.type, after.type)) changes.push(`${typeName}.${field} retyped from ${shape.type} to ${after.type}`);
      else if (after.required && !shape.required) changes.push(`${typeName}.${field} made required`);
      else if (after.check !== shape.check)
        changes.push(`${typeName}.${field} checked as ${after.check} instead of ${shape.check}`);
    }
    for (const [field, shape] of Object.entries(now)) {
      if (!fields[field] && shape.required) changes.push(`${typeName}.${field} added as required`);
    }
  }
  return changes;
}

/**
 * Whether `after` is `before` or a union of more: an event or an enum's value added is an
 * addition (sent only once the receivers know it, as the order of an upgrade sees to), one taken
 * away is a removal.
 */
function widens(before: string, after: string): boolean {
  const members = (type: string) => new Set(type.split(' | '));
  const now = members(after);
  return [...members(before)].every((member) => now.has(member));
}

/** The snapshot of `commit`'s contracts, as committed. */
export function readSnapshot(commit: string): ContractShapes {
  return JSON.parse(readFileSync(join(SNAPSHOTS, `${commit}.json`), 'utf8')) as ContractShapes;
}

if (require.main === module) {
  const commit = process.argv[2];
  if (!/^[0-9a-f]{40}$/.test(commit ?? '')) {
    process.stderr.write('usage: npx ts-node tools/contract-shapes.ts <full commit sha>\n');
    process.exit(2);
  }
  const path = join(SNAPSHOTS, `${commit}.json`);
  writeFileSync(path, `${JSON.stringify(contractShapes(commitContracts(commit)), null, 2)}\n`);
  process.stdout.write(`${path}\n`);
}
