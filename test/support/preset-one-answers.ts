/**
 * An application's every section as preset 1 (shipped, "Standard residential") asks it, filled in
 * whole: the fields each step's form posts, by step. The residences reach back six years from
 * today, past the three the preset asks for.
 */
/** The 15th of January, `years` years back: a date in the past whatever today is. */
export const yearsAgo = (years: number) => `${new Date().getUTCFullYear() - years}-01-15`;

export const IDENTITY = {
  middle_name: 'Byron',
  dob: '1990-04-12',
  id_number: '123-45-6789',
  drivers_license_state: 'NY',
  drivers_license_number: 'D1234567',
};
export const RESIDENCES = {
  'residences.0.address': '12 Elm Street, Springfield, IL 62701',
  'residences.0.from': yearsAgo(2),
  'residences.0.monthly_rent': '$1,450',
  'residences.1.address': '3 Oak Road, Springfield, IL 62702',
  'residences.1.from': yearsAgo(6),
  'residences.1.to': yearsAgo(2),
  'residences.1.landlord_name': 'Old Landlord',
  'residences.1.landlord_phone': '(555) 010-2222',
  'residences.1.reason_for_leaving': 'Needed more room',
};
export const EMPLOYMENT = {
  'employment.0.employer': 'Analytical Engines Ltd',
  'employment.0.position': 'Engineer',
  'employment.0.start_date': '2020-02-01',
  'employment.0.monthly_income': '5200',
  'other_income.0.source': 'Child support',
  'other_income.0.monthly_amount': '400',
};
export const HOUSEHOLD = {
  'adults.0.first_name': 'Charles',
  'adults.0.last_name': 'Babbage',
  'adults.0.email': 'charles@example.com',
  'minors.0.name': 'Annabella',
  'minors.0.age': '7',
  'pets.0.kind': 'Dog',
  'pets.0.description': 'Beagle, 10 kg',
  'vehicles.0.make_model': 'Toyota Corolla',
  'vehicles.0.plate': 'ABC 1234',
  'guarantors.0.first_name': 'Anne',
  'guarantors.0.last_name': 'Milbanke',
  'guarantors.0.email': 'anne@example.com',
};
export const EMERGENCY = { name: 'Mary Somerville', relationship: 'Aunt', phone: '555 010 9876' };
export const ANSWERS = {
  'answers.evicted': 'yes',
  'answers.eviction_details': 'A dispute in 2015, settled',
  'answers.judgements': 'no',
  'answers.bankruptcy': 'no',
  'answers.refused_rent': 'no',
  'answers.smoking': 'no',
  'answers.heard_from': 'A friend',
  'answers.occupants': '3',
  'answers.savings': '$12,000',
};
