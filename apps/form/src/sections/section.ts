import { FieldProblem, FormApplicant, FormPreset, FormSection, parseRequest, ServiceError } from '@app/contracts';
import { FormBody, QuestionView } from '../questions/question-kinds';

/** Where a section is asked: the preset (and its entry for the section), and whom. */
export interface SectionContext {
  preset: FormPreset;
  section: FormSection;
  applicant: FormApplicant;
}

/** One input of a section's page. */
export interface FieldSpec {
  name: string;
  label: string;
  required?: boolean;
  type?: 'text' | 'email' | 'tel' | 'date' | 'password' | 'textarea' | 'select';
  autocomplete?: string;
  inputmode?: string;
  hint?: string;
  options?: readonly string[];
  /** Never written back into a page (the SSN, the license number). */
  secret?: boolean;
  /** Stored sealed: the form never gets it back, and the review says it was given. */
  sealed?: boolean;
}

/** A repeated entry ("add another thing"): a list of rows of the same fields. */
export interface ListSpec {
  name: string;
  /** What one entry is called: "Address", "Job". */
  entry: string;
  heading: string;
  intro?: string;
  fields: FieldSpec[];
  /** How many rows a new page starts with. */
  start: number;
  max: number;
}

export interface FieldView extends FieldSpec {
  id: string;
  value: string;
}

export interface ListView {
  name: string;
  heading: string;
  intro: string | null;
  entry: string;
  rows: Array<{ index: number; legend: string; fields: FieldView[] }>;
  canAdd: boolean;
}

/** What a section's page shows, in order: its own fields, its lists, the preset's questions. */
export interface SectionPage {
  title: string;
  intro: string;
  fields: FieldView[];
  lists: ListView[];
  questions: QuestionView[];
  /** Shown beside the SSN: who gets it, why and for how long. */
  privacyNotice: boolean;
}

/** A POSTed step read: its typed value, or the problems to show beside its fields. */
export type Parsed<T> = { value: T; problems: [] } | { value: null; problems: FieldProblem[] };

/**
 * One section of the form (FormSection kind): what it asks, how a POSTed step becomes its typed
 * value (validated by the contract class that the applications service validates it with
 * again), and how a saved value is shown again.
 */
export abstract class SectionModule<T extends object> {
  abstract readonly kind: string;
  abstract readonly title: string;
  abstract readonly intro: string;
  protected readonly fields: FieldSpec[] = [];
  protected readonly lists: ListSpec[] = [];

  /** The step as POSTed, validated; rows left empty are dropped. */
  parse(body: FormBody, context: SectionContext): Parsed<T> {
    const plain = this.plain(body);
    let value: T;
    try {
      value = this.validate(plain);
    } catch (error) {
      if (error instanceof ServiceError && error.details) return { value: null, problems: this.renamed(error.details, body) };
      throw error;
    }
    const problems = this.problems(value, context);
    return problems.length > 0 ? { value: null, problems } : { value, problems: [] };
  }

  /** The form's fields for a saved value, as a POST of them would name them. */
  values(saved: unknown): FormBody {
    const values: FormBody = {};
    if (typeof saved !== 'object' || saved === null) return values;
    const record = saved as Record<string, unknown>;
    for (const field of this.fields) {
      const value = record[field.name];
      if (value !== null && value !== undefined && !field.secret) values[field.name] = String(value);
    }
    for (const list of this.lists) {
      const rows = Array.isArray(record[list.name]) ? (record[list.name] as Array<Record<string, unknown>>) : [];
      rows.forEach((row, index) => {
        for (const field of list.fields) {
          const value = row[field.name];
          if (value !== null && value !== undefined) values[`${list.name}.${index}.${field.name}`] = String(value);
        }
      });
      values[`${list.name}.rows`] = String(rows.length);
    }
    return values;
  }

  /** The page for `values` (a POSTed body or saved values). */
  page(values: FormBody, context: SectionContext): SectionPage {
    return {
      title: this.title,
      intro: this.intro,
      fields: this.fields.map((field) => view(field, field.name, values)),
      lists: this.lists.map((list) => {
        const count = rowCount(list, values);
        return {
          name: list.name,
          heading: list.heading,
          intro: list.intro ?? null,
          entry: list.entry,
          rows: Array.from({ length: count }, (_unused, index) => ({
            index,
            legend: `${list.entry} ${index + 1}`,
            fields: list.fields.map((field) => view(field, `${list.name}.${index}.${field.name}`, values)),
          })),
          canAdd: count < list.max,
        };
      }),
      questions: this.questionViews(values, context),
      privacyNotice: this.fields.some((field) => field.name === 'id_number'),
    };
  }

  /**
   * The body with one more row of `list` ("Add another") or without row `index` of it (its
   * "Remove" button): the page is drawn again from it, nothing saved, no JavaScript needed.
   */
  changeRows(body: FormBody, change: { add: string } | { remove: string; index: number }): FormBody {
    const list = this.lists.find((candidate) => candidate.name === ('add' in change ? change.add : change.remove));
    if (!list) return body;
    const count = rowCount(list, body);
    if ('add' in change) return { ...body, [`${list.name}.rows`]: String(Math.min(count + 1, list.max)) };
    const next: FormBody = Object.fromEntries(Object.entries(body).filter(([key]) => !key.startsWith(`${list.name}.`)));
    let kept = 0;
    for (let index = 0; index < count; index++) {
      if (index === change.index) continue;
      for (const field of list.fields) {
        const value = body[`${list.name}.${index}.${field.name}`];
        if (value !== undefined) next[`${list.name}.${kept}.${field.name}`] = value;
      }
      kept++;
    }
    next[`${list.name}.rows`] = String(kept);
    return next;
  }

  /** Whether a saved value completes the section (it was saved whole: the service validated it). */
  complete(saved: unknown): boolean {
    return typeof saved === 'object' && saved !== null;
  }

  /** The section's own checks beyond the contract's (an address history long enough). */
  protected problems(_value: T, _context: SectionContext): FieldProblem[] {
    return [];
  }

  protected questionViews(_values: FormBody, _context: SectionContext): QuestionView[] {
    return [];
  }

  protected abstract validate(plain: Record<string, unknown>): T;

  /** The fields of the body as the contract class reads them: empty ones left out, lists as arrays. */
  protected plain(body: FormBody): Record<string, unknown> {
    const plain: Record<string, unknown> = {};
    for (const field of this.fields) {
      const value = (body[field.name] ?? '').trim();
      if (value !== '') plain[field.name] = value;
    }
    for (const list of this.lists) {
      const rows: Array<Record<string, unknown>> = [];
      for (let index = 0; index < rowCount(list, body); index++) {
        const row: Record<string, unknown> = {};
        for (const field of list.fields) {
          const value = (body[`${list.name}.${index}.${field.name}`] ?? '').trim();
          if (value !== '') row[field.name] = numeric(field, value);
        }
        if (Object.keys(row).length > 0) rows.push(row);
      }
      plain[list.name] = rows;
    }
    return plain;
  }

  /**
   * Problems named as the page names its fields: a list's rows were renumbered when empty
   * ones were dropped, so `residences.0` of the contract may be row 1 of the page.
   */
  private renamed(problems: FieldProblem[], body: FormBody): FieldProblem[] {
    return problems.map(({ field, message }) => {
      const [list, index, ...rest] = field.split('.');
      const spec = this.lists.find((candidate) => candidate.name === list);
      if (!spec || rest.length === 0) return { field, message };
      const filled = Array.from({ length: rowCount(spec, body) }, (_unused, row) => row).filter((row) =>
        spec.fields.some((f) => (body[`${list}.${row}.${f.name}`] ?? '').trim() !== ''),
      );
      return { field: [list, String(filled[Number(index)] ?? index), ...rest].join('.'), message };
    });
  }
}

/** Validates `plain` with `type`, as the applications service will again. */
export function validated<T extends object>(type: new () => T, plain: Record<string, unknown>): T {
  return parseRequest(type, plain);
}

function view(field: FieldSpec, name: string, values: FormBody): FieldView {
  return { ...field, name, id: name, value: field.secret ? '' : (values[name] ?? '') };
}

/** Rows on the page: as many as the body says, at least the ones holding something, at least `start`. */
function rowCount(list: ListSpec, body: FormBody): number {
  const stated = Number(body[`${list.name}.rows`]);
  let filled = 0;
  for (const key of Object.keys(body)) {
    const match = new RegExp(`^${list.name}\\.(\\d+)\\.`).exec(key);
    if (match) filled = Math.max(filled, Number(match[1]) + 1);
  }
  const count = Number.isSafeInteger(stated) && stated >= 0 ? Math.max(stated, filled) : Math.max(filled, list.start);
  return Math.min(count, list.max);
}

/** Amounts and ages are numbers to the contract; "$1,850" is read as 1850. */
function numeric(field: FieldSpec, value: string): unknown {
  if (field.inputmode !== 'decimal' && field.inputmode !== 'numeric') return value;
  const plain = value.replace(/^\$\s*/, '').replace(/,(?=\d{3}(\D|$))/g, '');
  return /^\d+(\.\d+)?$/.test(plain) ? Number(plain) : value;
}
