import { isEmail } from 'class-validator';
import { CHOICE_SEPARATOR, FormQuestion, FormQuestionKind, MAX_FORM_ANSWER, phoneDigits } from '@app/contracts';

/** A submitted form: the last value of each field. */
export type FormBody = Record<string, string>;

/** What the view needs to draw one question: one of four controls, and the value to show in it. */
export interface QuestionView {
  name: string;
  label: string;
  hint: string | null;
  required: boolean;
  control: 'input' | 'textarea' | 'radios' | 'checkboxes';
  type: string;
  inputmode: string | null;
  autocomplete: string | null;
  /** radios and checkboxes: each option's field name (checkboxes), value, label and whether it is chosen. */
  options: Array<{ name: string; value: string; label: string; checked: boolean }>;
  value: string;
}

/** An answer as stored (always text, as form_answers returns it), or what is wrong with it. */
export type Checked = { answer: string } | { problem: string };

/**
 * One kind of question: how it is drawn and how what was typed is checked and normalized. The
 * POSTed fields are named `<name>` (`<name>.<option index>` for the options of a multiple choice).
 */
export abstract class QuestionKind {
  abstract readonly kind: FormQuestionKind;
  protected readonly control: QuestionView['control'] = 'input';
  protected readonly type: string = 'text';
  protected readonly inputmode: string | null = null;
  protected readonly autocomplete: string | null = null;
  protected readonly hint: string | null = null;

  /** The answer in `body` (empty: unanswered), or the problem with it. */
  read(question: FormQuestion, name: string, body: FormBody): Checked | null {
    const raw = (body[name] ?? '').trim();
    if (raw === '') return null;
    if (raw.length > MAX_FORM_ANSWER) return { problem: `must be at most ${MAX_FORM_ANSWER} characters` };
    return this.check(raw, question);
  }

  /** A non-empty answer normalized, or its problem. */
  protected check(raw: string, _question: FormQuestion): Checked {
    return { answer: raw };
  }

  view(question: FormQuestion, name: string, value: string): QuestionView {
    return {
      name,
      label: question.label,
      hint: question.help ?? this.hint,
      required: question.required,
      control: this.control,
      type: this.type,
      inputmode: this.inputmode,
      autocomplete: this.autocomplete,
      options: this.options(question, name, value),
      value,
    };
  }

  protected options(_question: FormQuestion, _name: string, _value: string): QuestionView['options'] {
    return [];
  }
}

export class TextQuestion extends QuestionKind {
  readonly kind = 'text';
  protected override readonly control = 'textarea';
}

export class AddressQuestion extends QuestionKind {
  readonly kind = 'address';
  protected override readonly control = 'textarea';
  protected override readonly autocomplete = 'street-address';
  protected override readonly hint = 'Street, city, state and ZIP code.';

  protected override check(raw: string): Checked {
    // An address has a number or a name and a place: one word is not enough to find it.
    return /\s/.test(raw)
      ? { answer: raw.replace(/\s*\n\s*/g, ', ') }
      : { problem: 'must be a full address: street, city, state and ZIP code' };
  }
}

export class YesNoQuestion extends QuestionKind {
  readonly kind = 'yes_no';
  protected override readonly control = 'radios';

  protected override check(raw: string): Checked {
    return raw === 'yes' || raw === 'no' ? { answer: raw } : { problem: 'must be yes or no' };
  }

  protected override options(_question: FormQuestion, name: string, value: string): QuestionView['options'] {
    return [
      { name, value: 'yes', label: 'Yes', checked: value === 'yes' },
      { name, value: 'no', label: 'No', checked: value === 'no' },
    ];
  }
}

export class ChoiceQuestion extends QuestionKind {
  readonly kind = 'choice';

  override read(question: FormQuestion, name: string, body: FormBody): Checked | null {
    const options = question.options ?? [];
    if (!question.multiple) {
      const raw = body[name] ?? '';
      if (raw === '') return null;
      return options.includes(raw) ? { answer: raw } : { problem: 'must be one of the options listed' };
    }
    const chosen = options.filter((_option, index) => body[`${name}.${index}`] === 'yes');
    return chosen.length === 0 ? null : { answer: chosen.join(CHOICE_SEPARATOR) };
  }

  override view(question: FormQuestion, name: string, value: string): QuestionView {
    return { ...super.view(question, name, value), control: question.multiple ? 'checkboxes' : 'radios' };
  }

  protected override options(question: FormQuestion, name: string, value: string): QuestionView['options'] {
    const chosen = question.multiple ? value.split(CHOICE_SEPARATOR) : [value];
    return (question.options ?? []).map((option, index) => ({
      name: question.multiple ? `${name}.${index}` : name,
      value: question.multiple ? 'yes' : option,
      label: option,
      checked: chosen.includes(option),
    }));
  }
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const US_DATE = /^(\d{2})\/(\d{2})\/(\d{4})$/;

export class DateQuestion extends QuestionKind {
  readonly kind = 'date';
  protected override readonly type = 'date';
  protected override readonly hint = 'For example March 1, 2027.';

  protected override check(raw: string): Checked {
    const us = US_DATE.exec(raw);
    const iso = us ? `${us[3]}-${us[1]}-${us[2]}` : raw;
    const match = ISO_DATE.exec(iso);
    const date = match ? new Date(`${iso}T00:00:00Z`) : null;
    return date && !Number.isNaN(date.getTime()) && date.toISOString().startsWith(iso)
      ? { answer: iso }
      : { problem: 'must be a calendar date written MM/DD/YYYY or YYYY-MM-DD' };
  }
}

export class MoneyQuestion extends QuestionKind {
  readonly kind = 'money';
  protected override readonly inputmode = 'decimal';
  protected override readonly hint = 'In dollars, for example 1,850.00.';

  protected override check(raw: string): Checked {
    const plain = raw.replace(/^\$\s*/, '').replace(/,(?=\d{3}(\D|$))/g, '');
    return /^\d{1,9}(\.\d{1,2})?$/.test(plain)
      ? { answer: Number(plain).toFixed(2) }
      : { problem: 'must be an amount in dollars, for example 1,850.00' };
  }
}

export class NumberQuestion extends QuestionKind {
  readonly kind = 'number';
  protected override readonly inputmode = 'numeric';

  protected override check(raw: string): Checked {
    return /^\d{1,9}$/.test(raw) ? { answer: String(Number(raw)) } : { problem: 'must be a whole number' };
  }
}

export class PhoneQuestion extends QuestionKind {
  readonly kind = 'phone';
  protected override readonly type = 'tel';
  protected override readonly autocomplete = 'tel';
  protected override readonly hint = '10 to 15 digits; spaces, dashes and brackets are fine.';

  protected override check(raw: string): Checked {
    const digits = phoneDigits(raw);
    return digits ? { answer: digits } : { problem: 'must be a phone number of 10 to 15 digits' };
  }
}

export class EmailQuestion extends QuestionKind {
  readonly kind = 'email';
  protected override readonly type = 'email';
  protected override readonly autocomplete = 'email';

  protected override check(raw: string): Checked {
    return isEmail(raw) && raw.length <= 254 ? { answer: raw } : { problem: 'must be a valid e-mail address' };
  }
}

/** The class for each kind of question a preset can ask. */
export const QUESTION_KINDS: Readonly<Record<FormQuestionKind, QuestionKind>> = {
  text: new TextQuestion(),
  yes_no: new YesNoQuestion(),
  choice: new ChoiceQuestion(),
  date: new DateQuestion(),
  money: new MoneyQuestion(),
  number: new NumberQuestion(),
  phone: new PhoneQuestion(),
  email: new EmailQuestion(),
  address: new AddressQuestion(),
};

/** Whether `question` is asked, given the answers so far: a follow-up only after its answer. */
export function isAsked(question: FormQuestion, answers: Record<string, string>): boolean {
  if (!question.when) return true;
  const given = answers[question.when.question];
  if (given === undefined) return false;
  const expected = question.when.answer;
  if (typeof expected === 'boolean') return given === (expected ? 'yes' : 'no');
  return given.split(CHOICE_SEPARATOR).includes(expected);
}
