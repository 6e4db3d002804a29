import { isHandWrittenSource, lineCount } from './source-files';

describe('isHandWrittenSource', () => {
  it('takes code and leaves out specs, generated code and what is not source', () => {
    expect(isHandWrittenSource('apps/x/src/a.service.ts', 'export {};\n')).toBe(true);
    expect(isHandWrittenSource('scripts/start.js', '')).toBe(true);
    expect(isHandWrittenSource('apps/x/src/a.service.spec.ts', '')).toBe(false);
    expect(isHandWrittenSource('test/a.e2e-spec.ts', '')).toBe(false);
    expect(isHandWrittenSource('packages/client/src/generated/api.ts', '')).toBe(false);
    expect(isHandWrittenSource('tools/types.ts', '/**\n * This file was auto-generated. Do not edit.\n */\n')).toBe(false);
    expect(isHandWrittenSource('docs/form.png', '')).toBe(false);
  });
});

describe('lineCount', () => {
  it('counts a last line with or without its newline', () => {
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(2);
    expect(lineCount('')).toBe(0);
  });
});
