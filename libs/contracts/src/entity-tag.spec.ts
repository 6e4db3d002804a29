import { entityTag, tagListMatches } from './entity-tag';

describe('entityTag', () => {
  it('is a quoted tag that changes with the representation and not with nothing', () => {
    const tag = entityTag({ id: 1, name: 'A' });
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(entityTag({ id: 1, name: 'A' })).toBe(tag);
    expect(entityTag({ id: 1, name: 'B' })).not.toBe(tag);
  });
});

describe('tagListMatches', () => {
  const tag = entityTag({ id: 1 });

  it('finds the tag in a list, and * matches anything', () => {
    expect(tagListMatches(`"other", ${tag}`, tag)).toBe(true);
    expect(tagListMatches('"other"', tag)).toBe(false);
    expect(tagListMatches(' * ', tag)).toBe(true);
  });

  it('compares weakly for If-None-Match and strongly for If-Match', () => {
    expect(tagListMatches(`W/${tag}`, tag)).toBe(true);
    expect(tagListMatches(`W/${tag}`, tag, 'strong')).toBe(false);
    expect(tagListMatches(tag, tag, 'strong')).toBe(true);
  });
});
