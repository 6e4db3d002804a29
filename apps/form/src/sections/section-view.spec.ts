import { Eta } from 'eta';
import { formPreset, FormApplicant, PropertyRepresentation } from '@app/contracts';
import { fieldId, problemsByField, summarize } from '../form/pages';
import { assetPath } from '../form/static-assets';
import { VIEWS_DIR } from '../form/views';
import { SECTIONS } from './steps';

const HOSTILE = '"><img src=x onerror=alert(1)><script>alert(2)</script>';

describe('the section page', () => {
  const eta = new Eta({ views: VIEWS_DIR, autoEscape: true, autoTrim: false });
  const property = { name: HOSTILE, street: HOSTILE, city: '', state: '', floor_plans: [] } as unknown as PropertyRepresentation;

  it.each(Object.keys(SECTIONS))('%s renders everything typed into it as text', (kind) => {
    const module = SECTIONS[kind as keyof typeof SECTIONS];
    const context = { preset: formPreset(1), section: { kind: kind as 'identity' }, applicant: {} as FormApplicant };
    // Every field of every row, and every question, holds the hostile text.
    const body: Record<string, string> = {};
    for (const field of module.page({}, context).fields) body[field.name] = HOSTILE;
    for (const list of module.page({}, context).lists) {
      body[`${list.name}.rows`] = '1';
      for (const field of module.page({ [`${list.name}.rows`]: '1' }, context).lists.find((l) => l.name === list.name)!.rows[0]
        .fields) {
        body[field.name] = HOSTILE;
      }
    }
    for (const question of module.page({}, context).questions) body[question.name] = HOSTILE;
    const problems = Object.keys(body).map((field) => ({ field, message: HOSTILE }));
    const html = eta.render('section', {
      title: HOSTILE,
      iframe: false,
      step: 3,
      steps: 10,
      problems,
      errors: problemsByField(problems),
      fieldId,
      summarize,
      assetPath,
      property,
      section: module.page(body, context),
      values: body,
      action: '/applicants/x/' + kind,
      back: '/back',
      csrf: 'token',
    });
    expect(html).not.toMatch(/<img src=x|<script>alert/);
    expect(html).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
  });

  it('reviews what was saved: sealed identity fields as given, answers in the words of their options', () => {
    const context = (kind: string) => ({
      preset: formPreset(1),
      section: { kind: kind as 'identity' },
      applicant: {} as FormApplicant,
    });
    const sections = (['identity', 'questions'] as const).map((kind) => ({
      kind,
      change: `/applicants/x/${kind}`,
      page: SECTIONS[kind].page(
        SECTIONS[kind].values(kind === 'identity' ? { middle_name: HOSTILE } : { evicted: 'yes', heard_from: 'A friend' }),
        context(kind),
      ),
    }));
    const html = eta.render('review', {
      title: 'Check your answers',
      iframe: false,
      errors: {},
      fieldId,
      summarize,
      assetPath,
      property,
      applicant: { first_name: HOSTILE, last_name: 'L', email: 'a@example.com' },
      sections,
      change: { contact: '/c', details: '/d' },
      next: '/finish',
      back: '/back',
    });
    const text = html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(text).toContain('Date of birth Given, not shown');
    expect(text).toContain('Social security number Given, not shown');
    expect(text).toContain('Have you ever been evicted? Yes');
    expect(text).toContain('How did you hear about this home? A friend');
    expect(html).not.toMatch(/<img src=x|<script>alert/);
  });
});
