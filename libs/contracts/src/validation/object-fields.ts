/**
 * Field decorators for objects: any JSON object within limits, kept as sent, and a nested object
 * validated by its own class.
 */
import { ValidateIf, ValidateNested } from 'class-validator';
import { Check, field } from './field-declaration';
import { JsonObjectOptions, Presence } from './field-options';

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Any JSON object within the limits, kept exactly as sent. Its keys are the caller's: none may
 * start with "$" or contain ".", so that nothing in it can ever read as a MongoDB operator or path.
 */
export function JsonObjectField(options: JsonObjectOptions): PropertyDecorator {
  const check: Check = (value) => {
    if (!isPlainObject(value)) return 'must be a JSON object';
    // The shape first: serializing a value nested thousands deep would overflow the stack.
    const shape = jsonShapeProblem(value, options);
    if (shape) return shape;
    const size = Buffer.byteLength(JSON.stringify(value), 'utf8');
    return size <= options.maxBytes ? null : `must be at most ${options.maxBytes} bytes as JSON`;
  };
  return field('jsonObjectField', options, check, { type: 'object', additionalProperties: true });
}

/** The first way `root` breaks the depth, width or key rules; walked without recursion. */
function jsonShapeProblem(root: object, { maxDepth, maxEntries }: JsonObjectOptions): string | null {
  const pending: Array<[object, number]> = [[root, 1]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [container, depth] = next;
    if (depth > maxDepth) return `must be nested at most ${maxDepth} levels deep`;
    const entries = Object.entries(container);
    if (entries.length > maxEntries) return `must have at most ${maxEntries} items in any one array or object`;
    for (const [key, value] of entries) {
      if (!Array.isArray(container) && (key.startsWith('$') || key.includes('.'))) {
        return 'must not have keys that start with "$" or contain "."';
      }
      if (typeof value === 'object' && value !== null) pending.push([value, depth + 1]);
    }
  }
  return null;
}

/** A nested object validated by its own class. */
export function NestedField(type: () => new () => object, options: Presence = {}): PropertyDecorator {
  const check: Check = (value) => (isPlainObject(value) ? null : 'must be an object');
  // @nestjs/swagger resolves a lazy type by its function's name: it must be called `type`.
  const declare = field('nestedField', options, check, { type: () => type() }, { nested: type });
  const validateNested = ValidateNested();
  return (target: object, key: string | symbol) => {
    declare(target, key);
    validateNested(target, key);
    if (options.nullable) nullAllowed(target, key);
  };
}

/**
 * A nullable nested field that is null has nothing to check: class-validator would otherwise
 * refuse null as "nested property ... must be either object or array", so that `null`, which
 * unsets such a field, could never be sent.
 */
export const nullAllowed = ValidateIf((_object: object, value: unknown) => value !== null);
