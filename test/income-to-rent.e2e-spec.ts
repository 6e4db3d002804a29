import { KEYS, Stack } from '../tools/stack';
import { sendStep, startForm } from './support/form-documents';
import { api, Api } from './support/http';
import { IDENTITY, RESIDENCES } from './support/preset-one-answers';

const LISTER = 'test-key-income-lister';
const applications = '/api/v2/applications';

/**
 * Income to rent against the whole stack: the rent from the floor plan chosen or the caller's,
 * the incomes as each applicant states them on the form's employment step, posted as a browser
 * posts it, summed and divided as docs/integrators/api.md says, and the list filtered on the ratio.
 */
describe('income to rent', () => {
  let stack: Stack;
  let client: Api;

  beforeAll(async () => {
    stack = await Stack.start({
      form: true,
      env: { FORM_RATE_LIMIT_PER_MINUTE: '1000000', API_KEYS: `${KEYS.clientOne}:1,${LISTER}:3` },
    });
    client = api(stack.url);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  /** The applicant's form steps up to its employment, which states `jobs` and `other` a month. */
  async function stateIncome(
    formUrl: string,
    type: string,
    jobs: number[],
    other: number[] = [],
    details: Record<string, string> = {},
  ): Promise<void> {
    const token = await startForm(stack.formUrl, formUrl);
    const employment: Record<string, string> = {};
    jobs.forEach((income, i) => {
      employment[`employment.${i}.employer`] = `Employer ${i}`;
      employment[`employment.${i}.start_date`] = '2020-02-01';
      employment[`employment.${i}.monthly_income`] = String(income);
    });
    other.forEach((amount, i) => {
      employment[`other_income.${i}.source`] = `Source ${i}`;
      employment[`other_income.${i}.monthly_amount`] = String(amount);
    });
    const steps: Array<[string, Record<string, string>]> = [
      ...(type === 'primary'
        ? [['details', { desired_move_in: '2027-03-01', ...details }] as [string, Record<string, string>]]
        : []),
      ['identity', IDENTITY],
      ['residence_history', RESIDENCES],
      ['employment', employment],
    ];
    for (const [step, fields] of steps) {
      const sent = await sendStep(stack.formUrl, token, step, fields);
      expect({ step, status: sent.status }).toEqual({ step, status: 303 });
    }
  }

  it('judges the household’s stated income, without the guarantor’s, against the floor plan’s rent or the caller’s', async () => {
    const property = (await client.post('/api/v2/properties', { property: { name: 'Income Court', kind: 'multi_family' } })).body
      .property;
    const plan = (
      await client.post(`/api/v2/properties/${property.id}/floor_plans`, { floor_plan: { name: 'Two bedroom', rent: 2000 } })
    ).body.floor_plan;
    const created = (
      await client.post(applications, {
        application: {
          property_id: property.id,
          user_specified_rent: 1600,
          applicant: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
        },
      })
    ).body.application;
    expect(created).toMatchObject({ rent: 1600, household_monthly_income: null, income_to_rent: null });
    expect(created.applicants[0]).toMatchObject({ monthly_income: null, income_to_rent: null });
    const keys = Object.keys(created);
    expect(keys.slice(keys.indexOf('status'), keys.indexOf('created_at'))).toEqual([
      'status',
      'rent',
      'household_monthly_income',
      'income_to_rent',
      'personal_data_erased_at',
    ]);
    expect(Object.keys(created.applicants[0])).toEqual(['id', 'type', 'name', 'api_url', 'monthly_income', 'income_to_rent']);

    const add = async (type: string, first: string) =>
      (
        await client.post(`${applications}/${created.id}/applicants`, {
          applicant: { type, first_name: first, last_name: 'Byron', email: `${first.toLowerCase()}@example.com` },
        })
      ).body.applicant;
    const co = await add('co_applicant', 'Annabella');
    const guarantor = await add('guarantor', 'George');
    const primary = (await client.get(new URL(created.applicants[0].api_url).pathname)).body.applicant;

    // The primary applicant chooses the floor plan on the form's second step.
    await stateIncome(primary.form_url, 'primary', [2500, 700.5], [300], { floor_plan_id: String(plan.id) });
    await stateIncome(guarantor.form_url, 'guarantor', [9000]);
    const read = async () => (await client.get(`${applications}/${created.id}`)).body.application;
    // The co-applicant has stated nothing yet: the household's income is not known.
    let application = await read();
    expect(application).toMatchObject({
      floor_plan_id: plan.id,
      rent: 2000,
      household_monthly_income: null,
      income_to_rent: null,
    });
    expect(application.applicants.map((a: any) => [a.type, a.monthly_income, a.income_to_rent])).toEqual([
      ['primary', 3500.5, 1.75],
      ['co_applicant', null, null],
      ['guarantor', 9000, 4.5],
    ]);

    await stateIncome(co.form_url, 'co_applicant', [], [500]);
    application = await read();
    expect(application).toMatchObject({ rent: 2000, household_monthly_income: 4000.5, income_to_rent: 2 });
    expect(application.applicants.map((a: any) => [a.monthly_income, a.income_to_rent])).toEqual([
      [3500.5, 1.75],
      [500, 0.25],
      [9000, 4.5],
    ]);

    // A floor plan without a rent leaves the caller's.
    expect(
      (await client.patch(`/api/v2/properties/${property.id}/floor_plans/${plan.id}`, { floor_plan: { rent: null } })).status,
    ).toBe(200);
    expect(await read()).toMatchObject({ rent: 1600, household_monthly_income: 4000.5, income_to_rent: 2.5 });
  });

  it('lists only the applications whose income_to_rent reaches income_to_rent_min', async () => {
    const property = (
      await client.post('/api/v2/properties', { property: { name: 'Ratio Row', kind: 'single_family' } }, { key: LISTER })
    ).body.property;
    const made: Array<{ id: number; formUrl: string }> = [];
    for (const rent of [1000, 2000, 4000]) {
      const application = (
        await client.post(
          applications,
          {
            application: {
              property_id: property.id,
              user_specified_rent: rent,
              applicant: { first_name: 'Rent', last_name: String(rent), email: `rent${rent}@example.com` },
            },
          },
          { key: LISTER },
        )
      ).body.application;
      const primary = (await client.get(new URL(application.applicants[0].api_url).pathname, { key: LISTER })).body.applicant;
      made.push({ id: application.id, formUrl: primary.form_url });
    }
    for (const { formUrl } of made.slice(0, 2)) await stateIncome(formUrl, 'primary', [6000]);
    const ids = async (query: string) => {
      const answer = await client.get(`${applications}?${query}`, { key: LISTER });
      expect(answer.status).toBe(200);
      return answer.body.applications.map((application: { id: number }) => application.id);
    };
    // Ratios 6, 3 and none (the third stated no income).
    expect(await ids('income_to_rent_min=3')).toEqual([made[1].id, made[0].id]);
    expect(await ids('income_to_rent_min=3.01')).toEqual([made[0].id]);
    expect(await ids('income_to_rent_min=0')).toEqual([made[1].id, made[0].id]);
    for (const bad of ['-1', 'abc', '1001', '2.555']) {
      const answer = await client.get(`${applications}?income_to_rent_min=${bad}`, { key: LISTER });
      expect({ bad, status: answer.status, details: answer.body.error.details }).toEqual({
        bad,
        status: 422,
        details: [{ field: 'income_to_rent_min', message: 'must be a number from 0 to 1000, with at most two decimals (2.5)' }],
      });
    }
  });
});
