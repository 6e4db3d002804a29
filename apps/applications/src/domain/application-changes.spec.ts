import { ApplicationStatus, FormStatus } from '@app/contracts';
import { changeableState, changedApplication, CHANGEABLE_FIELDS, withChange } from './application-changes';
import { matchesListFilters } from './application-filters';
import { withClaimedChange } from './application-versions';
import { ApplicantRecord, ApplicationRecord } from './application';

const AT = new Date('2026-11-23T10:00:00Z');

const application = (overrides: Partial<ApplicationRecord> = {}): ApplicationRecord =>
  ({
    id: 4,
    client_id: 1,
    property_id: 2,
    property_name: 'P',
    assigned_user_id: null,
    user_specified_rent: 1500,
    desired_move_in: null,
    applicants: [{ id: 1, type: 'primary', first_name: 'A', last_name: 'B', email: 'a@example.com' } as ApplicantRecord],
    version: 0,
    created_at: new Date('2026-01-01T00:00:00Z'),
    updated_at: new Date('2026-01-01T00:00:00Z'),
    request_key: 'r',
    ...overrides,
  }) as ApplicationRecord;

describe('changedApplication', () => {
  it('sets the fields whose value changes, and names them in application.updated', () => {
    const change = changedApplication(application(), { referral: 'Newspaper', user_specified_rent: 1500, floor_plan_id: 3 }, AT);
    expect(change).toEqual({
      fields: { floor_plan_id: 3, referral: 'Newspaper' },
      events: [
        {
          event: 'application.updated',
          data: { application_id: 4, property_id: 2, changed_fields: ['floor_plan_id', 'referral'] },
        },
      ],
    });
  });

  it('unsets a field given null, and takes every changeable field', () => {
    const everything = Object.fromEntries(CHANGEABLE_FIELDS.map((field) => [field, null]));
    const change = changedApplication(application({ assigned_user_id: 9 }), everything, AT);
    expect(change?.fields).toEqual({ assigned_user_id: null, user_specified_rent: null });
  });

  it('changes nothing, and publishes nothing, for values already there', () => {
    expect(changedApplication(application(), {}, AT)).toBeNull();
    expect(changedApplication(application(), { user_specified_rent: 1500, referral: null, archived: false }, AT)).toBeNull();
    const archived = application({ archived_at: new Date('2026-02-01T00:00:00Z') });
    expect(changedApplication(archived, { archived: true }, AT)).toBeNull();
  });

  it('archives at the time of the change, and restores, each with its own event', () => {
    expect(changedApplication(application(), { archived: true }, AT)).toEqual({
      fields: { archived_at: AT },
      events: [{ event: 'application.archived', data: { application_id: 4, property_id: 2 } }],
    });
    const restored = changedApplication(application({ archived_at: AT }), { archived: false, showing_agent: 'Sam' }, AT);
    expect(restored).toEqual({
      fields: { showing_agent: 'Sam', archived_at: null },
      events: [
        { event: 'application.updated', data: { application_id: 4, property_id: 2, changed_fields: ['showing_agent'] } },
        { event: 'application.restored', data: { application_id: 4, property_id: 2 } },
      ],
    });
  });
});

describe('changes as versions of the application', () => {
  it('folds in field changes and added applicants in the order they were claimed', () => {
    const coApplicant = {
      id: 2,
      type: 'co_applicant',
      first_name: 'C',
      last_name: 'D',
      email: 'c@example.com',
    } as ApplicantRecord;
    const later = new Date('2026-11-23T11:00:00Z');
    let current = withClaimedChange(application(), { fields: { referral: 'Web', showing_agent: 'Sam' } }, 1, AT);
    current = withClaimedChange(current, { applicant: coApplicant }, 2, AT);
    current = withClaimedChange(current, { fields: { referral: null, archived_at: later } }, 3, later);

    expect(current).toMatchObject({ referral: null, showing_agent: 'Sam', archived_at: later, version: 3, updated_at: later });
    expect(current.applicants.map((applicant) => applicant.id)).toEqual([1, 2]);
  });
});

const read = (primaryFormStatus: FormStatus, status: ApplicationStatus = 'draft', ratio: number | null = null) => ({
  primaryFormStatus,
  representation: { status, income_to_rent: ratio },
});

describe('matchesListFilters', () => {
  const archived = application({ archived_at: AT, assigned_user_id: 7, updated_at: AT });
  const live = application({ assigned_user_id: 8 });

  it('leaves archived applications out unless asked for them', () => {
    expect([matchesListFilters(live, {}), matchesListFilters(archived, {})]).toEqual([true, false]);
    expect([matchesListFilters(live, { archived: 'true' }), matchesListFilters(archived, { archived: 'true' })]).toEqual([
      false,
      true,
    ]);
    expect([matchesListFilters(live, { archived: 'all' }), matchesListFilters(archived, { archived: 'all' })]).toEqual([
      true,
      true,
    ]);
  });

  it('keeps those assigned to the user, changed at or after updated_since, with the primary form status asked for', () => {
    const all = { archived: 'all' } as const;
    expect(matchesListFilters(archived, { ...all, assigned_user_id: 7 })).toBe(true);
    expect(matchesListFilters(live, { ...all, assigned_user_id: 7 })).toBe(false);
    expect(matchesListFilters(archived, { ...all, updated_since: AT.toISOString() })).toBe(true);
    expect(matchesListFilters(archived, { ...all, updated_since: '2026-11-23T10:00:01.000Z' })).toBe(false);
    expect(matchesListFilters(live, { form_status: 'started' }, read('started'))).toBe(true);
    expect(matchesListFilters(live, { form_status: 'started' }, read('not_started'))).toBe(false);
    // Before the rest is read, only the application's own fields count.
    expect(matchesListFilters(live, { form_status: 'started' })).toBe(true);
  });

  it('keeps those of the status asked for, and those whose income_to_rent reaches the minimum', () => {
    const live = application();
    expect(matchesListFilters(live, { status: 'approved' }, read('completed', 'approved'))).toBe(true);
    expect(matchesListFilters(live, { status: 'approved' }, read('completed', 'submitted'))).toBe(false);
    expect(matchesListFilters(live, { income_to_rent_min: 3 }, read('completed', 'submitted', 3))).toBe(true);
    expect(matchesListFilters(live, { income_to_rent_min: 3 }, read('completed', 'submitted', 2.99))).toBe(false);
    expect(matchesListFilters(live, { income_to_rent_min: 0 }, read('completed', 'submitted', null))).toBe(false);
  });
});

describe('an erasure of personal data as a change', () => {
  const sealed = { key_id: 'k1', nonce: 'n', ciphertext: 'c', tag: 't' };
  const withPersonalData = application({
    applicants: [
      { id: 1, type: 'primary', first_name: 'A', last_name: 'B', email: 'a@example.com', dob: sealed, id_number: sealed },
    ] as ApplicantRecord[],
    decisions: [
      { status: 'declined', conditions: [], reasons: ['income'], note: null, decided_by: null, key_id: null, decided_at: AT },
    ],
  });
  const erasedAt = new Date('2026-11-24T00:00:00Z');

  it('takes the applicants’ personal data, keeping who they are and what was decided', () => {
    const erased = withChange(withPersonalData, { personal_data_erased_at: erasedAt }, 3, erasedAt);
    expect(erased.applicants).toEqual([
      {
        id: 1,
        type: 'primary',
        first_name: 'A',
        last_name: 'B',
        email: 'a@example.com',
        dob: null,
        id_number: null,
        personal_data_erased_at: erasedAt,
      },
    ]);
    expect(erased).toMatchObject({ decisions: withPersonalData.decisions, version: 3, personal_data_erased_at: erasedAt });
    // Later changes read it erased too, whatever copy they start from.
    const later = withChange({ ...erased, applicants: withPersonalData.applicants }, { referral: 'x' }, 4, AT);
    expect(later.applicants[0]).toMatchObject({ dob: null, id_number: null });
  });

  it('is copied into the document with every change after it, and absent before it', () => {
    expect(changeableState(withPersonalData)).not.toHaveProperty('personal_data_erased_at');
    expect(changeableState({ ...withPersonalData, personal_data_erased_at: erasedAt }).personal_data_erased_at).toBe(erasedAt);
  });
});
