import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { create, Font } from 'fontkit';
import { Coverage } from './text-runs';

/**
 * The fonts the table sheet embeds: Noto Sans (Latin, Latin Extended with
 * the dotted and accented letters of Yoruba, Vietnamese and most European
 * languages, Greek and Cyrillic, with combining marks) and Noto Naskh Arabic
 * (the Arabic script), each regular and bold, from the npm packages that
 * ship them as TrueType files. pdfkit embeds the glyphs a sheet uses.
 * Scripts neither font covers (Chinese, Japanese, Korean, Indic scripts,
 * Hebrew, Thai…) print as empty boxes.
 */
export interface SheetFonts {
  latin: Buffer;
  latinBold: Buffer;
  arabic: Buffer;
  arabicBold: Buffer;
  coverage: Coverage;
}

/** The folder of TrueType files a font package ships beside its entry point. */
function fontsOf(pkg: string): string {
  return join(dirname(require.resolve(pkg)), '..', 'fonts');
}

let loaded: SheetFonts | undefined;

/** Read once per process (the renderer's worker thread), then shared by every sheet. */
export function sheetFonts(): SheetFonts {
  if (loaded) return loaded;
  const latinDir = fontsOf('@embedpdf/fonts-latin');
  const arabicDir = fontsOf('@embedpdf/fonts-arabic');
  const latin = readFileSync(join(latinDir, 'NotoSans-Regular.ttf'));
  const arabic = readFileSync(join(arabicDir, 'NotoNaskhArabic-Regular.ttf'));
  const latinFont: Font = create(latin);
  const arabicFont: Font = create(arabic);
  loaded = {
    latin,
    latinBold: readFileSync(join(latinDir, 'NotoSans-Bold.ttf')),
    arabic,
    arabicBold: readFileSync(join(arabicDir, 'NotoNaskhArabic-Bold.ttf')),
    coverage: {
      latin: (codePoint) => latinFont.hasGlyphForCodePoint(codePoint),
      arabic: (codePoint) => arabicFont.hasGlyphForCodePoint(codePoint),
    },
  };
  return loaded;
}
