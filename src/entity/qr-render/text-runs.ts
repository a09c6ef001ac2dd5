/**
 * How a title of any script is printed with the sheet's fonts: split into
 * runs of one direction and one font, in the order they are drawn from left
 * to right.
 *
 * Right-to-left text is shaped by the font engine (fontkit, under pdfkit):
 * Arabic letters take their joined forms and ligatures, and a right-to-left
 * run is laid out right to left. What it does not do is the Unicode
 * bidirectional algorithm across runs; this module does the part a title
 * needs: the paragraph takes the direction of its first strong letter, a
 * stretch of left-to-right letters and digits inside right-to-left text
 * keeps its own order, and the runs of a right-to-left paragraph are drawn
 * in reverse. Explicit direction marks and embeddings are not followed.
 */

export type FontRole = 'latin' | 'arabic';
export type Direction = 'ltr' | 'rtl';

/** One piece of a title, drawn with one font and one direction. */
export interface TextRun {
  text: string;
  font: FontRole;
  direction: Direction;
}

/** Which code points each font draws. */
export interface Coverage {
  latin(codePoint: number): boolean;
  arabic(codePoint: number): boolean;
}

/** Letters of the Arabic script (and its presentation forms): strong right-to-left. */
const ARABIC = /[\u0600-\u06FF\u0750-\u077F\u0870-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]/u;
/** Letters and digits of any other script: strong left-to-right. */
const LTR = /[\p{L}\p{Nd}]/u;
const MARK = /\p{M}/u;

type Strength = Direction | 'neutral';

function strengthOf(char: string): Strength {
  if (ARABIC.test(char) && !MARK.test(char)) return 'rtl';
  if (LTR.test(char)) return 'ltr';
  return 'neutral';
}

/** Characters with the direction they are laid out in (marks follow their base). */
function resolve(chars: string[]): Direction[] {
  const strengths = chars.map(strengthOf);
  for (let i = 1; i < chars.length; i++) {
    if (MARK.test(chars[i])) strengths[i] = strengths[i - 1];
  }
  const paragraph: Direction = (strengths.find((s) => s !== 'neutral') as Direction) ?? 'ltr';
  const resolved: Direction[] = [];
  for (let i = 0; i < chars.length; i++) {
    const strength = strengths[i];
    if (strength !== 'neutral') {
      resolved.push(strength);
      continue;
    }
    // A neutral between two letters of one direction takes it; anywhere else, the paragraph's.
    let before: Strength = 'neutral';
    for (let j = i - 1; j >= 0 && before === 'neutral'; j--) before = strengths[j];
    let after: Strength = 'neutral';
    for (let j = i + 1; j < chars.length && after === 'neutral'; j++) after = strengths[j];
    resolved.push(before !== 'neutral' && before === after ? before : paragraph);
  }
  return resolved;
}

/** The paragraph direction of a text: that of its first strong letter, else left to right. */
export function paragraphDirection(text: string): Direction {
  const strong = [...text].map(strengthOf).find((s) => s !== 'neutral');
  return (strong as Direction | undefined) ?? 'ltr';
}

/**
 * The runs of `text` in drawing order (left to right). A run of Arabic
 * letters is drawn with the Arabic font; anything else with the Latin
 * font, or the Arabic one where only it has the character. A character
 * neither font has is drawn with the Latin font's empty box.
 */
export function textRuns(text: string, coverage: Coverage): TextRun[] {
  const chars = [...text];
  if (chars.length === 0) return [];
  const directions = resolve(chars);
  const runs: TextRun[] = [];
  chars.forEach((char, index) => {
    const codePoint = char.codePointAt(0)!;
    const direction = directions[index];
    const previous = runs[runs.length - 1];
    let font: FontRole;
    if (MARK.test(char) && previous) font = previous.font;
    else if (direction === 'rtl' && coverage.arabic(codePoint)) font = 'arabic';
    else font = coverage.latin(codePoint) || !coverage.arabic(codePoint) ? 'latin' : 'arabic';
    if (previous && previous.font === font && previous.direction === direction) {
      previous.text += char;
    } else {
      runs.push({ text: char, font, direction });
    }
  });
  // A right-to-left paragraph is drawn from its end: its runs in reverse. The font engine
  // reverses each right-to-left run as it lays it out; a left-to-right run keeps its order.
  return paragraphDirection(text) === 'rtl' ? runs.reverse() : runs;
}
