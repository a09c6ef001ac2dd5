import { Coverage, paragraphDirection, textRuns } from './text-runs';

/** Latin covers everything but Arabic letters; Arabic covers its letters, spaces and digits. */
const coverage: Coverage = {
  latin: (cp) => cp < 0x0600 || cp > 0x06ff,
  arabic: (cp) => (cp >= 0x0600 && cp <= 0x06ff) || cp === 0x20 || (cp >= 0x30 && cp <= 0x39),
};

describe('text runs of a title', () => {
  it('keeps a Latin title, accents and combining marks included, in one left-to-right run', () => {
    expect(textRuns('Ọjà Ẹ̀kọ́ Ṣàngó', coverage)).toEqual([
      { text: 'Ọjà Ẹ̀kọ́ Ṣàngó', font: 'latin', direction: 'ltr' },
    ]);
  });

  it('keeps an Arabic title with its inner spaces in one right-to-left run', () => {
    expect(textRuns('مطعم الأمل', coverage)).toEqual([
      { text: 'مطعم الأمل', font: 'arabic', direction: 'rtl' },
    ]);
    expect(paragraphDirection('مطعم الأمل')).toBe('rtl');
  });

  it('draws the runs of a right-to-left paragraph from its end, numbers left to right', () => {
    expect(textRuns('مطعم 24 ساعة', coverage)).toEqual([
      // The font engine lays ' ساعة' out from its end: the space lands on the right.
      { text: ' ساعة', font: 'arabic', direction: 'rtl' },
      { text: '24', font: 'latin', direction: 'ltr' },
      { text: 'مطعم ', font: 'arabic', direction: 'rtl' },
    ]);
  });

  it('keeps a left-to-right paragraph in reading order', () => {
    expect(textRuns('Mama Put مطعم', coverage)).toEqual([
      { text: 'Mama Put ', font: 'latin', direction: 'ltr' },
      { text: 'مطعم', font: 'arabic', direction: 'rtl' },
    ]);
    expect(textRuns('', coverage)).toEqual([]);
  });
});
