/**
 * One decorator per kind of field, each checking presence, type and range together, so that a
 * field yields exactly one problem with one plain message. Messages name no field: the path is
 * added where errors are flattened (`application.applicant.email`).
 *
 * Each decorator also declares the field, with how its value is normalized before the check
 * (trimmed, digits read as a number, a date rewritten as YYYY-MM-DD) and, for a nested object,
 * its class. Only declared fields are copied from a request; every other key is an unknown
 * field, whatever its name (`constructor` and `toString` included).
 *
 * And each describes the field to OpenAPI (@nestjs/swagger) from the same options that drive
 * the check: type, limits, required, nullable. A field's description, example and default are
 * added with @ApiProperty beside it.
 *
 * field-declaration.ts holds what every kind shares and field-options.ts what each is given; the
 * kinds are grouped by the shape of their value, a file each.
 */
export { CrossCheck, CrossChecked, crossCheckOf, declaredFields, FieldSpec } from './field-declaration';
export {
  DateOptions,
  IntegerOptions,
  JsonObjectOptions,
  NestedListOptions,
  NumberOptions,
  StringListOptions,
  StringOptions,
} from './field-options';
export {
  BooleanField,
  DateField,
  EnumField,
  IntegerField,
  NumberField,
  StringField,
  StringOrBooleanField,
} from './scalar-fields';
export { EmailField, PhoneField, phoneDigits, SsnField, UrlField } from './formatted-fields';
export { EnumListField, NestedListField, StringListField } from './list-fields';
export { isPlainObject, JsonObjectField, NestedField } from './object-fields';
