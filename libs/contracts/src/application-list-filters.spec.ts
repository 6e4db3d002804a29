import { parseTimestampQuery } from './application-list-filters';
import { listApplicationsFromQuery } from './application-messages';
import { ServiceError } from './errors';

function problemsOf(query: Record<string, unknown>) {
  try {
    listApplicationsFromQuery(1, query);
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    return (error as ServiceError).details;
  }
  throw new Error('it was accepted');
}

describe('the filters of the applications list', () => {
  it('reads archived, form_status, assigned_user_id and updated_since into the list message', () => {
    expect(
      listApplicationsFromQuery(1, {
        archived: 'all',
        form_status: 'completed',
        assigned_user_id: '42',
        updated_since: '2026-11-22T14:03:09+00:00',
      }),
    ).toEqual({
      client_id: 1,
      limit: 25,
      archived: 'all',
      form_status: 'completed',
      assigned_user_id: 42,
      updated_since: '2026-11-22T14:03:09.000Z',
    });
  });

  it('refuses each bad value, naming every one', () => {
    expect(
      problemsOf({ archived: 'yes', form_status: 'done', assigned_user_id: '0', updated_since: 'yesterday', limit: '0' }),
    ).toEqual([
      { field: 'limit', message: 'must be an integer from 1 to 100' },
      { field: 'archived', message: 'must be one of false, true, all' },
      { field: 'form_status', message: 'must be one of not_started, started, completed' },
      { field: 'assigned_user_id', message: 'must be an integer from 1 to 2147483647' },
      {
        field: 'updated_since',
        message: 'must be a timestamp such as 2026-11-22T14:03:09+00:00 (encode + as %2B) or a date YYYY-MM-DD',
      },
    ]);
  });

  it.each([['2147483648'], ['1.5'], ['-3'], [['1', '2']], ['']])('refuses assigned_user_id %j', (value) => {
    expect(problemsOf({ assigned_user_id: value })).toHaveLength(1);
  });

  it.each([['TRUE'], [''], [['true', 'false']]])('refuses archived %j', (value) => {
    expect(problemsOf({ archived: value })).toEqual([{ field: 'archived', message: 'must be one of false, true, all' }]);
  });
});

describe('parseTimestampQuery', () => {
  it.each([
    ['2026-11-22T14:03:09+00:00', '2026-11-22T14:03:09.000Z'],
    ['2026-11-22T14:03:09 00:00', '2026-11-22T14:03:09.000Z'],
    ['2026-11-22T16:03:09+02:00', '2026-11-22T14:03:09.000Z'],
    ['2026-11-22T14:03:09.250Z', '2026-11-22T14:03:09.250Z'],
    ['2026-11-22T14:03Z', '2026-11-22T14:03:00.000Z'],
    ['2026-11-22', '2026-11-22T00:00:00.000Z'],
  ])('reads %s', (text, iso) => {
    expect(parseTimestampQuery(text)?.toISOString()).toBe(iso);
  });

  it.each([
    ['2026-02-30'],
    ['2026-11-22T24:00:00Z'],
    ['2026-11-22T14:03:09'],
    ['11/22/2026'],
    ['1700000000'],
    ['2026-11-22T14:03:60+00:00'],
  ])('refuses %s', (text) => {
    expect(parseTimestampQuery(text)).toBeNull();
  });
});
