/**
 * How a field decorator declares its field, written once for every kind of field: how its value
 * is normalized and what nested class it is built from (read by the parser), the one constraint
 * class-validator runs, and its OpenAPI description. Also the checks across a class's fields.
 */
// The decorators below read and write design-time metadata.
import 'reflect-metadata';
import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';
import { FieldProblem } from '../errors';
import { Presence } from './field-options';

export type Normalize = (value: unknown) => unknown;

export interface FieldSpec {
  normalize: Normalize;
  nested?: () => new () => object;
  /** An array whose objects are each built from this class. */
  nestedList?: () => new () => object;
}

/**
 * A check across the fields of one object (a `when` naming an earlier question, ids not
 * repeated), run once every field has been checked on its own. It returns each problem with the
 * path of its field relative to the object. It sees the object as sent, so it must expect any
 * field to be of any type.
 */
export type CrossCheck<T> = (instance: T) => FieldProblem[];

const crossChecks = new Map<ContractClass, CrossCheck<never>>();

export function crossCheckOf(type: ContractClass): CrossCheck<object> | undefined {
  return crossChecks.get(type) as CrossCheck<object> | undefined;
}

/** Declares the class's CrossCheck. */
export function CrossChecked<T>(check: CrossCheck<T>): ClassDecorator {
  return (target) => {
    crossChecks.set(target, check as CrossCheck<never>);
  };
}

/** A contract class, as a property decorator sees it (`target.constructor` is typed `Function`). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type ContractClass = Function;

const declared = new Map<ContractClass, Map<string, FieldSpec>>();

/** The fields a contract class declares, by name, those of the classes it extends included. */
export function declaredFields(type: ContractClass): ReadonlyMap<string, FieldSpec> {
  // A class that extends another contract (an added applicant) declares the parent's fields too.
  const parent = Object.getPrototypeOf(type) as ContractClass | null;
  const inherited = parent && parent !== Function.prototype ? declaredFields(parent) : new Map<string, FieldSpec>();
  const own = declared.get(type);
  return own ? new Map([...inherited, ...own]) : inherited;
}

export const asIs: Normalize = (value) => value;

export type Check = (value: unknown) => string | null;

export type Schema = ApiPropertyOptions & Record<string, unknown>;

const IS_REQUIRED = 'is required';
const NOT_NULL = 'must not be null';

/**
 * Declares the field, registers `check` as its single constraint (it returns a message or
 * null), and describes it to OpenAPI as `schema`.
 */
export function field(
  name: string,
  presence: Presence,
  check: Check,
  schema: Schema,
  spec: Partial<FieldSpec> = {},
): PropertyDecorator {
  const problem = (value: unknown): string | null => {
    if (value === undefined) return presence.required ? IS_REQUIRED : null;
    if (value === null) {
      if (presence.required) return IS_REQUIRED;
      return presence.nullable ? null : NOT_NULL;
    }
    return check(value);
  };
  const options: ValidationOptions = presence.code ? { context: { code: presence.code } } : {};
  const describe = ApiProperty({
    ...schema,
    required: presence.required === true,
    ...(presence.nullable ? { nullable: true } : {}),
  } as ApiPropertyOptions);
  return (target: object, propertyName: string | symbol) => {
    describe(target, propertyName);
    const fields = declared.get(target.constructor) ?? new Map<string, FieldSpec>();
    declared.set(target.constructor, fields);
    fields.set(propertyName as string, { normalize: asIs, ...spec });
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => problem(value) === null,
        defaultMessage: (args?: ValidationArguments) => problem(args?.value) ?? '',
      },
    });
  };
}

export const trim: Normalize = (value) => (typeof value === 'string' ? value.trim() : value);
