import { csvCell, csvRecord } from './csv';

describe('csvCell', () => {
  it('leaves plain text as it is and writes nothing for null', () => {
    expect(csvCell('Ada Lovelace')).toBe('Ada Lovelace');
    expect(csvCell('12.50')).toBe('12.50');
    expect(csvCell(3)).toBe('3');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('quotes commas, quotes and line breaks, doubling the quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell('cr\rlf')).toBe('"cr\rlf"');
  });

  it.each(['=1+1', '+2348000000000', '-5', '@SUM(A1)', '\tx', '\rx'])(
    'neutralises the formula cell %j',
    (value) => {
      expect(csvCell(value).replace(/^"/, '').startsWith(`'${value[0]}`)).toBe(true);
    },
  );

  it('neutralises and then quotes', () => {
    expect(csvCell('=HYPERLINK("x","y")')).toBe('"\'=HYPERLINK(""x"",""y"")"');
  });
});

describe('csvRecord', () => {
  it('joins with commas and ends with CRLF', () => {
    expect(csvRecord(['a', null, 'b,c'])).toBe('a,,"b,c"\r\n');
  });
});
