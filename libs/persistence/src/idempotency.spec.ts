import { fingerprintOf } from './idempotency';

describe('fingerprintOf', () => {
  it('is the same for equal bodies whatever the order of their keys, at any depth', () => {
    const one = { application: { property_id: 1, applicant: { first_name: 'A', custom_data: { x: [1, { b: 2, a: 1 }] } } } };
    const two = { application: { applicant: { custom_data: { x: [1, { a: 1, b: 2 }] }, first_name: 'A' }, property_id: 1 } };
    expect(fingerprintOf(one)).toBe(fingerprintOf(two));
  });

  it('differs when a value, a key, or the order of an array differs', () => {
    const base = fingerprintOf({ a: 1, list: [1, 2] });
    expect(fingerprintOf({ a: 2, list: [1, 2] })).not.toBe(base);
    expect(fingerprintOf({ b: 1, list: [1, 2] })).not.toBe(base);
    expect(fingerprintOf({ a: 1, list: [2, 1] })).not.toBe(base);
    expect(fingerprintOf({ a: '1', list: [1, 2] })).not.toBe(base);
  });

  it('ignores fields left undefined, as JSON does', () => {
    expect(fingerprintOf({ a: 1, b: undefined })).toBe(fingerprintOf({ a: 1 }));
  });
});
