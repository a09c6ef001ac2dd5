import { parseTableList } from './table-list';

describe('parseTableList', () => {
  it('expands ranges and keeps names in order', () => {
    expect(parseTableList('1-3, Patio 1,Patio_2,bar-7')).toEqual({
      ok: true,
      tables: ['1', '2', '3', 'Patio 1', 'Patio_2', 'bar-7'],
    });
    expect(parseTableList('4-4')).toEqual({ ok: true, tables: ['4'] });
  });

  it('refuses a backward range, an empty list and a bad name with 400', () => {
    expect(parseTableList('5-2')).toMatchObject({ ok: false, status: 400 });
    expect(parseTableList('')).toMatchObject({ ok: false, status: 400 });
    expect(parseTableList(undefined)).toMatchObject({ ok: false, status: 400 });
    expect(parseTableList('1,,2')).toMatchObject({ ok: false, status: 400 });
    expect(parseTableList('Table#1')).toMatchObject({ ok: false, status: 400 });
    expect(parseTableList('x'.repeat(33))).toMatchObject({ ok: false, status: 400 });
  });

  it('takes 200 tables and refuses 201 with 422', () => {
    expect(parseTableList('1-200')).toMatchObject({ ok: true });
    expect(parseTableList('1-201')).toMatchObject({ ok: false, status: 422 });
    expect(parseTableList('1-200,Patio')).toMatchObject({ ok: false, status: 422 });
    expect(parseTableList('1-100000000000')).toMatchObject({ ok: false, status: 422 });
  });
});
