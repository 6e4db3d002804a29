import { PipeTransform } from '@nestjs/common';
import { ErrorCode, FieldProblem, ServiceError } from '../errors';

/**
 * Characters that make one line of text into several, or reorder it, where a value is shown: C0
 * and C1 controls (line breaks and tabs among them), DEL, the Unicode line and paragraph
 * separators, and the bidirectional overrides and isolates.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

export const CONTROL_CHARACTER_PROBLEM = 'must not contain line breaks, tabs or other control characters';

/** The problems of the fields at `paths` (dotted) of `body` that hold a control character. */
export function controlCharacterProblems(body: unknown, paths: readonly string[]): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const path of paths) {
    const value = path
      .split('.')
      .reduce<unknown>(
        (at, key) => (typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[key] : undefined),
        body,
      );
    if (typeof value === 'string' && CONTROL_CHARACTER.test(value))
      problems.push({ field: path, message: CONTROL_CHARACTER_PROBLEM });
  }
  return problems;
}

/**
 * Refuses a request whose fields at `paths` (names and other one-line text that e-mails show)
 * hold a control character: a name is one line, and a "name" of several paragraphs and links
 * would reach inboxes as our mail. Applied where requests enter (the gateway and the form), after
 * the contract's own check, which services of the previous release share and which stays as it is.
 */
export class PlainTextPipe<T> implements PipeTransform<T, T> {
  constructor(private readonly paths: readonly string[]) {}

  transform(value: T): T {
    const problems = controlCharacterProblems(value, this.paths);
    if (problems.length > 0) {
      throw new ServiceError(ErrorCode.VALIDATION_FAILED, `${problems[0].field} ${problems[0].message}`, problems);
    }
    return value;
  }
}
