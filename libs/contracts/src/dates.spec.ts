import { formatTimestamp, parseCalendarDate, todayUtc } from './dates';

describe('parseCalendarDate', () => {
  it('reads MM/DD/YYYY and returns YYYY-MM-DD', () => {
    expect(parseCalendarDate('03/14/2024')).toBe('2024-03-14');
    expect(parseCalendarDate('12/31/1999')).toBe('1999-12-31');
    expect(parseCalendarDate('01/01/0001')).toBe('0001-01-01');
  });

  it('reads YYYY-MM-DD and returns it unchanged', () => {
    expect(parseCalendarDate('2024-03-14')).toBe('2024-03-14');
    expect(parseCalendarDate('1999-12-31')).toBe('1999-12-31');
  });

  it('accepts February 29 only in leap years', () => {
    expect(parseCalendarDate('02/29/2024')).toBe('2024-02-29');
    expect(parseCalendarDate('2024-02-29')).toBe('2024-02-29');
    expect(parseCalendarDate('02/29/2000')).toBe('2000-02-29');
    expect(parseCalendarDate('2000-02-29')).toBe('2000-02-29');
    expect(parseCalendarDate('02/29/1900')).toBeNull();
    expect(parseCalendarDate('1900-02-29')).toBeNull();
    expect(parseCalendarDate('02/29/2023')).toBeNull();
    expect(parseCalendarDate('2100-02-29')).toBeNull();
  });

  it('knows the length of every month', () => {
    const lengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    lengths.forEach((length, index) => {
      const month = String(index + 1).padStart(2, '0');
      expect(parseCalendarDate(`${month}/${length}/2023`)).toBe(`2023-${month}-${length}`);
      expect(parseCalendarDate(`2023-${month}-${length}`)).toBe(`2023-${month}-${length}`);
      expect(parseCalendarDate(`${month}/${length + 1}/2023`)).toBeNull();
      expect(parseCalendarDate(`2023-${month}-${length + 1}`)).toBeNull();
    });
  });

  it.each(['02/30/2024', '13/01/2024', '00/10/2024', '01/00/2024', '04/31/2024', '01/01/0000'])(
    'refuses the impossible US date %s',
    (text) => {
      expect(parseCalendarDate(text)).toBeNull();
    },
  );

  it.each(['2024-02-30', '2024-13-01', '2024-00-10', '2024-01-00', '2024-06-31', '0000-01-01'])(
    'refuses the impossible ISO date %s',
    (text) => {
      expect(parseCalendarDate(text)).toBeNull();
    },
  );

  it.each([
    '',
    'tomorrow',
    '1/2/2024',
    '2024-2-1',
    '2024/02/01',
    '02-01-2024',
    '01.02.2024',
    '20240201',
    ' 2024-02-01',
    '2024-02-01 ',
    '2024-02-01T00:00:00Z',
    '+2024-02-01',
    '02/01/24',
    '02/01/20240',
    '２０２４-02-01',
  ])('refuses the text %j', (text) => {
    expect(parseCalendarDate(text)).toBeNull();
  });
});

describe('formatTimestamp', () => {
  it('writes seconds precision with a numeric UTC offset, dropping milliseconds', () => {
    expect(formatTimestamp(new Date(Date.UTC(2026, 10, 22, 14, 3, 9, 987)))).toBe('2026-11-22T14:03:09+00:00');
  });

  it('writes the instant in UTC whatever offset it was given in', () => {
    expect(formatTimestamp(new Date('2026-11-22T16:03:09.500+02:00'))).toBe('2026-11-22T14:03:09+00:00');
    expect(formatTimestamp(new Date('2026-12-31T23:30:00-05:00'))).toBe('2027-01-01T04:30:00+00:00');
  });

  it('always has the ISO 8601 shape', () => {
    expect(formatTimestamp(new Date())).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
  });
});

describe('todayUtc', () => {
  it('gives the UTC calendar day of the instant', () => {
    expect(todayUtc(new Date('2024-03-01T23:59:59Z'))).toBe('2024-03-01');
    expect(todayUtc(new Date('2024-03-01T23:30:00-05:00'))).toBe('2024-03-02');
    expect(todayUtc(new Date('2024-03-02T00:30:00+02:00'))).toBe('2024-03-01');
  });

  it('defaults to now', () => {
    const before = new Date().toISOString().slice(0, 10);
    const today = todayUtc();
    const after = new Date().toISOString().slice(0, 10);
    expect([before, after]).toContain(today);
    expect(parseCalendarDate(today)).toBe(today);
  });
});
