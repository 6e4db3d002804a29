import { folderArrows, layering } from './structure';

describe('layering', () => {
  it('counts the floors of a chain, each folder one floor, and no upward arrow', () => {
    expect(
      layering(
        ['a', 'b', 'c'],
        [
          ['a', 'b'],
          ['b', 'c'],
          ['a', 'c'],
        ],
      ),
    ).toEqual({
      folders: ['a', 'b', 'c'],
      floors: 3,
      upwardArrows: 0,
    });
  });

  it('draws a cycle as one floor and counts each pair of folders inside it once', () => {
    // transport -> service <-> store -> domain, and store -> service -> model -> store round a longer cycle.
    const arrows: Array<[string, string]> = [
      ['transport', 'service'],
      ['service', 'store'],
      ['store', 'service'],
      ['service', 'model'],
      ['model', 'store'],
      ['store', 'domain'],
    ];
    expect(layering(['transport', 'service', 'store', 'model', 'domain'], arrows)).toEqual({
      folders: ['domain', 'model', 'service', 'store', 'transport'],
      floors: 3,
      upwardArrows: 3,
    });
  });

  it('gives a folder nothing imports nor is imported by one floor', () => {
    expect(layering(['lonely'], [])).toEqual({ folders: ['lonely'], floors: 1, upwardArrows: 0 });
  });
});

describe('folderArrows', () => {
  it('joins the imports of modules into one arrow per pair of folders, none inside a folder', () => {
    const src = 'apps/x/src';
    expect(
      folderArrows(
        [
          [`${src}/main.ts`, `${src}/app.module.ts`],
          [`${src}/app.module.ts`, `${src}/store/a.repository.ts`],
          [`${src}/app.module.ts`, `${src}/store/b.repository.ts`],
          [`${src}/store/a.repository.ts`, `${src}/store/b.repository.ts`],
        ],
        src,
      ),
    ).toEqual([['.', 'store']]);
  });
});
