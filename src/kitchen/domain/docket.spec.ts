import { docketBytes, docketLines, docketText, DocketTicket, toAscii, wrap } from './docket';

const ticket: DocketTicket = {
  station: 'grill',
  station_title: 'Grillé',
  kind: 'new',
  order_reference: 'K7Q2M9',
  fulfilment_type: 'dine_in',
  table: 'Terrasse 12',
  created_at: '2026-11-26T14:05:00.000Z',
  requested_time: null,
  general_note: 'Anniversaire — bougie sur le gâteau, s’il vous plaît',
  lines: [
    {
      title_name: 'Crème brûlée à la fève tonka et caramel beurre salé extraordinairement longue',
      quantity: 2,
      options: [{ group: 'size', group_title: 'Taille', option: 'l', option_title: 'Grande' }],
      item_note: 'sans noix',
      allergens: ['milk', 'eggs'],
    },
    {
      title_name: 'Suya',
      quantity: 1,
      options: [],
      item_note: 'Supercalifragilisticexpialidociousandsomemoreletters',
      allergens: [],
    },
  ],
};

describe('dockets (R89)', () => {
  it('never have a line longer than their width, and are ASCII', () => {
    for (const width of [32, 42, 48]) {
      for (const reprint of [false, true]) {
        const lines = docketLines(ticket, width, reprint);
        for (const line of lines) {
          expect(line.length).toBeLessThanOrEqual(width);
          expect(line).toMatch(/^[ -~]*$/);
        }
      }
    }
  });

  it('transliterate rather than drop', () => {
    expect(toAscii('é à ß ₦ “q” 😀')).toBe('e a ss N "q" ?');
    const text = docketText(ticket, 32, false);
    expect(text).toContain('GRILLE');
    expect(text).toContain('Creme brulee');
    expect(text).toContain('ALLERGENS: milk, eggs');
    expect(text).toContain('TABLE Terrasse 12');
    expect(text).toContain('Note: sans noix');
    expect(text).not.toContain('REPRINT');
    expect(docketText(ticket, 32, true).split('\n')[0]).toContain('REPRINT');
  });

  it('show times in the business’s time zone, UTC without one', () => {
    expect(docketText(ticket, 42, false)).toMatch(/Placed\s+14:05 26\/11 UTC/);
    expect(docketText({ ...ticket, time_zone: 'Africa/Lagos' }, 42, false)).toMatch(
      /Placed\s+15:05 26\/11\n/,
    );
    expect(docketText({ ...ticket, time_zone: 'Not/AZone' }, 42, false)).toContain(
      '14:05 26/11 UTC',
    );
  });

  it('cut long words', () => {
    expect(wrap('a'.repeat(70), 32, '  ').every((line) => line.length <= 32)).toBe(true);
  });

  it('as ESC/POS: initialise, double-height header, feed and cut', () => {
    const bytes = docketBytes(ticket, 42, false);
    expect([...bytes.subarray(0, 5)]).toEqual([0x1b, 0x40, 0x1b, 0x21, 0x10]);
    expect([...bytes.subarray(bytes.length - 7)]).toEqual([
      0x1b, 0x64, 0x04, 0x1d, 0x56, 0x42, 0x00,
    ]);
    expect(bytes.includes(Buffer.from([0x1b, 0x21, 0x00]))).toBe(true);
    expect([...bytes].every((b) => b < 0x80)).toBe(true);
  });
});
