import { readFileSync } from 'node:fs';

/** What the summary needs of a fontkit face: whether it can draw a character. */
interface FontFace {
  hasGlyphForCodePoint(codePoint: number): boolean;
}
// pdfkit's own font parser; it ships no types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fontkit = require('fontkit') as { create(data: Buffer): FontFace };

/** The names the summary's document knows its two faces by. */
export const REGULAR = 'DejaVuSans';
export const BOLD = 'DejaVuSans-Bold';

interface LoadedFace {
  bytes: Buffer;
  face: FontFace;
}
let faces: Record<typeof REGULAR | typeof BOLD, LoadedFace> | undefined;

function load(file: string): LoadedFace {
  const bytes = readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${file}`));
  return { bytes, face: fontkit.create(bytes) };
}

/** Read once per process, on the first summary: each document embeds only the glyphs it uses. */
function loaded(): NonNullable<typeof faces> {
  faces ??= { [REGULAR]: load('DejaVuSans.ttf'), [BOLD]: load('DejaVuSans-Bold.ttf') };
  return faces;
}

/**
 * DejaVu Sans instead of pdfkit's built-in Helvetica, whose WinAnsi encoding has no Ł, no Greek
 * and no Cyrillic letters: names in them came out as other characters.
 */
export function registerSummaryFonts(pdf: PDFKit.PDFDocument): void {
  for (const [name, { bytes }] of Object.entries(loaded())) pdf.registerFont(name, bytes);
}

/**
 * The text with each character neither face can draw (CJK among them: DejaVu has none) written as
 * its code point, `[U+5C71]`: the reader sees what was given instead of an empty box or nothing.
 */
export function drawable(text: string): string {
  const { [REGULAR]: regular, [BOLD]: bold } = loaded();
  let out = '';
  for (const character of text) {
    const codePoint = character.codePointAt(0)!;
    const printable =
      /\s/.test(character) || (regular.face.hasGlyphForCodePoint(codePoint) && bold.face.hasGlyphForCodePoint(codePoint));
    out += printable ? character : `[U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}]`;
  }
  return out;
}
