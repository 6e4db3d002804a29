import { CHOICE_SEPARATOR, FieldProblem, FormQuestion } from '@app/contracts';
import { FormBody, isAsked, QUESTION_KINDS, QuestionView } from '../questions/question-kinds';
import { Parsed, SectionContext, SectionModule } from './section';

/** The preset's own questions' answers, by question id. */
export type Answers = Record<string, string>;

const name = (question: FormQuestion) => `answers.${question.id}`;

/**
 * The preset's own questions, each drawn and checked by the class of its kind. A follow-up
 * (`when`) is shown under its question and asked only when that answer is given; otherwise what
 * was typed in it is dropped.
 */
export class QuestionsSection extends SectionModule<Answers> {
  readonly kind = 'questions';
  readonly title = 'A few questions';
  readonly intro = 'Answer honestly: the property manager may check.';

  override parse(body: FormBody, context: SectionContext): Parsed<Answers> {
    const answers: Answers = {};
    const problems: FieldProblem[] = [];
    for (const question of context.preset.questions) {
      if (!isAsked(question, answers)) continue;
      const checked = QUESTION_KINDS[question.kind].read(question, name(question), body);
      if (checked === null) {
        if (question.required) problems.push({ field: name(question), message: 'must be answered' });
      } else if ('problem' in checked) {
        problems.push({ field: name(question), message: checked.problem });
      } else {
        answers[question.id] = checked.answer;
      }
    }
    return problems.length > 0 ? { value: null, problems } : { value: answers, problems: [] };
  }

  override values(saved: unknown): FormBody {
    if (typeof saved !== 'object' || saved === null) return {};
    return Object.fromEntries(Object.entries(saved as Answers).map(([id, answer]) => [`answers.${id}`, answer]));
  }

  protected override questionViews(values: FormBody, context: SectionContext): QuestionView[] {
    return context.preset.questions.map((question) => {
      const view = QUESTION_KINDS[question.kind].view(question, name(question), shown(question, values));
      if (!question.when) return view;
      const parent = context.preset.questions.find((candidate) => candidate.id === question.when!.question);
      const answer = question.when.answer === true ? 'Yes' : question.when.answer === false ? 'No' : String(question.when.answer);
      // Without JavaScript the follow-up is always on the page: it says when it applies.
      const when = `Only if you answered “${answer}” to “${parent?.label ?? question.when.question}”.`;
      return { ...view, required: false, hint: [when, view.hint].filter(Boolean).join(' ') };
    });
  }

  protected validate(): Answers {
    throw new Error('the questions section reads its answers by kind');
  }
}

/** The answer to show: as saved, or as POSTed (a multiple choice posts one field per option). */
function shown(question: FormQuestion, values: FormBody): string {
  if (!question.multiple) return values[name(question)] ?? '';
  const posted = (question.options ?? []).filter((_option, index) => values[`${name(question)}.${index}`] === 'yes');
  return posted.length > 0 ? posted.join(CHOICE_SEPARATOR) : (values[name(question)] ?? '');
}
