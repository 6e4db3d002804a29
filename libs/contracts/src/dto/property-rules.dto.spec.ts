import { ServiceError } from '../errors';
import { parseRequest } from '../validation/parse';
import { RulePackWaiverInput } from './property-rules.dto';

describe('RulePackWaiverInput', () => {
  const waiver = (fields: Record<string, unknown>) => parseRequest(RulePackWaiverInput, fields);

  it('takes a known pack with a reason, trimmed', () => {
    expect(waiver({ pack_id: 'us-wa-seattle', reason: '  The owner lives in the other half of the duplex.  ' })).toEqual({
      pack_id: 'us-wa-seattle',
      reason: 'The owner lives in the other half of the duplex.',
    });
  });

  it.each([
    [{ pack_id: 'us-wa-seattle' }, 'reason is required'],
    [{ pack_id: 'us-wa-seattle', reason: 'Because.' }, 'reason must be at least 20 characters'],
    [
      { pack_id: 'us-tx', reason: 'A reason long enough to be read.' },
      'pack_id must be one of us-federal, us-wa, us-wa-seattle, us-ca, us-il-cook-county, us-ny-nyc',
    ],
  ])('refuses %j: %s', (fields, message) => {
    expect(() => waiver(fields)).toThrow(ServiceError);
    expect(() => waiver(fields)).toThrow(message);
  });
});
