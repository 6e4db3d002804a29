import { ApplicantRecord, ApplicationRecord } from './application';
import { addedBy, addedThroughForm, formAddedKey, joining } from './form-added';

const person = (id: number, type: ApplicantRecord['type'], name: string, requestKey?: string): ApplicantRecord =>
  ({
    id,
    type,
    first_name: name,
    last_name: 'Lovelace',
    email: `${name.toLowerCase()}@example.com`,
    ...(requestKey ? { request_key: requestKey } : {}),
  }) as ApplicantRecord;

const primary = person(10, 'primary', 'Ada', 'form:nonce-of-step-one');
const listedAdult = person(11, 'co_applicant', 'Byron', formAddedKey(10, 'co_applicant', 0));
const listedGuarantor = person(12, 'guarantor', 'Anne', formAddedKey(10, 'guarantor', 0));
const apiAdded = person(13, 'co_applicant', 'Charles', 'key:6a1f9c2e-0b1d-4c55-9a51-1c2b3d4e5f60');
const application = { id: 4, applicants: [primary, listedAdult, listedGuarantor, apiAdded] } as ApplicationRecord;

describe('who added whom through the form', () => {
  it('names the applicant whose form listed an applicant, and nobody for one the API added', () => {
    expect(addedBy(application, listedAdult)).toBe('Ada Lovelace');
    expect(addedBy(application, listedGuarantor)).toBe('Ada Lovelace');
    expect(addedBy(application, apiAdded)).toBeNull();
    expect(addedBy(application, primary)).toBeNull();
  });

  it('tells a co-applicant or guarantor whose application it joins, and whether that applicant listed it', () => {
    expect(joining(application, listedGuarantor)).toEqual({ primary_name: 'Ada Lovelace', listed_by_primary: true });
    expect(joining(application, apiAdded)).toEqual({ primary_name: 'Ada Lovelace', listed_by_primary: false });
    expect(joining(application, primary)).toBeNull();
  });

  it('lists the people an applicant’s form listed, in order, and none for another applicant', () => {
    expect(addedThroughForm(application, primary)).toEqual([
      { name: 'Byron Lovelace', type: 'co_applicant' },
      { name: 'Anne Lovelace', type: 'guarantor' },
    ]);
    expect(addedThroughForm(application, apiAdded)).toEqual([]);
  });

  it('does not take a key that only looks alike for the form’s', () => {
    const lookalike = person(14, 'co_applicant', 'Eve', 'form:10:co_applicant:0:extra');
    expect(addedBy({ ...application, applicants: [primary, lookalike] } as ApplicationRecord, lookalike)).toBeNull();
  });
});
