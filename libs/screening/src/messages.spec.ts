import { formatMessage, sentence } from './messages';

describe('formatMessage', () => {
  it('puts values in their places, numbers in the locale’s digits', () => {
    expect(formatMessage('{name} needs {count} documents.', { name: 'Ada', count: 1200 })).toBe('Ada needs 1,200 documents.');
    expect(formatMessage('A ratio of {ratio}.', { ratio: 2.5 })).toBe('A ratio of 2.5.');
  });

  it('writes dollars with cents only when there are some', () => {
    expect(formatMessage('{rent, number, currency}', { rent: 1850 })).toBe('$1,850');
    expect(formatMessage('{rent, number, currency}', { rent: 1850.5 })).toBe('$1,850.50');
    expect(formatMessage('{ratio, number}', { ratio: 3.333 })).toBe('3.33');
  });

  it('chooses a plural form, an exact one first, with # for the number', () => {
    const template = '{count, plural, =0 {No one} one {# person} other {# people}} may live here.';
    expect(formatMessage(template, { count: 0 })).toBe('No one may live here.');
    expect(formatMessage(template, { count: 1 })).toBe('1 person may live here.');
    expect(formatMessage(template, { count: 4 })).toBe('4 people may live here.');
  });

  it('chooses a select option, else other, and nests arguments inside options', () => {
    const template =
      'Compared with {basis, select, share {your share of the rent, {rent, number, currency}} other {the rent of {rent, number, currency}}}.';
    expect(formatMessage(template, { basis: 'share', rent: 400 })).toBe('Compared with your share of the rent, $400.');
    expect(formatMessage(template, { basis: 'rent', rent: 1850 })).toBe('Compared with the rent of $1,850.');
    expect(formatMessage('{flag, select, true {yes} other {no}}', { flag: true })).toBe('yes');
  });

  it('keeps # literal outside a plural', () => {
    expect(formatMessage('Unit #{unit}', { unit: 4 })).toBe('Unit #4');
  });

  it('refuses a missing value, a value of the wrong kind and a malformed template', () => {
    expect(() => formatMessage('{name} applied.')).toThrow('the message needs a value for {name}');
    expect(() => formatMessage('{rent, number, currency}', { rent: 'much' })).toThrow('must be a number');
    expect(() => formatMessage('{count, plural, one {#}}', { count: 1 })).toThrow('without an "other" option');
    expect(() => formatMessage('{name', { name: 'x' })).toThrow('expected');
    expect(() => formatMessage('a } b')).toThrow('an unmatched }');
    expect(() => formatMessage('{n, number, percent}', { n: 1 })).toThrow('unknown number style');
    expect(() => formatMessage('{n, date}', { n: 1 })).toThrow('unknown argument type');
  });

  it('renders in another locale’s plural rules and digits', () => {
    expect(formatMessage('{n, plural, one {# persona} other {# personas}}', { n: 1500 }, 'es-US')).toBe('1,500 personas');
  });
});

describe('sentence', () => {
  it('keeps the id and values beside the text, for a translation to render again', () => {
    const catalogue = { 'greeting.named': 'Hello, {name}.' } as const;
    expect(sentence(catalogue, 'greeting.named', { name: 'Ada' })).toEqual({
      id: 'greeting.named',
      values: { name: 'Ada' },
      text: 'Hello, Ada.',
    });
  });
});
