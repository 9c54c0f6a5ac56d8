// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ResultDataError,
  cellText,
  columnKind,
  csvField,
  csvFileName,
  parseTemporalCell,
  toChartRecords,
  toCsv,
  toCsvBlob,
  toTsv,
} from '../../../src/core/result-data';
import { ServiceValidationError } from '../../../src/core/errors';

/** An RFC 4180 reader, written independently of the writer, to read what toCsv wrote. */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const character = text[index]!;
    if (quoted) {
      if (character === '"' && text[index + 1] === '"') {
        field += '"';
        index++;
      } else if (character === '"') quoted = false;
      else field += character;
    } else if (character === '"') quoted = true;
    else if (character === ',') {
      row.push(field);
      field = '';
    } else if (character === '\r' && text[index + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      index++;
    } else field += character;
  }
  if (field !== '' || row.length > 0) throw new Error('CSV does not end with CRLF');
  return rows;
}

describe('columnKind', () => {
  it.each([
    ['Int64', 'number'],
    ['int32', 'number'],
    ['UInt8', 'number'],
    ['Double', 'number'],
    ['Float', 'number'],
    ['Decimal(38,2)', 'number'],
    ['Number', 'number'],
    ['BIGINT', 'number'],
    ['Timestamp', 'temporal'],
    ['Date', 'temporal'],
    ['DateTime64(3)', 'temporal'],
    ['Boolean', 'boolean'],
    ['String', 'string'],
    ['Interval', 'string'],
    ['Internal', 'string'],
    [undefined, 'string'],
  ] as const)('%s is %s', (type, kind) => {
    expect(columnKind(type)).toBe(kind);
  });
});

describe('toChartRecords', () => {
  const columns = [
    { name: 'month', type: 'Timestamp' },
    { name: 'revenue', type: 'Double' },
    { name: 'orders', type: 'Int64' },
    { name: 'vip', type: 'Boolean' },
    { name: 'region', type: 'String' },
  ];

  it('converts each cell by its column type', () => {
    const [record] = toChartRecords(columns, [['2025-03-01T00:00:00.000', '1234.5', '17', 'true', 'EMEA']]);
    expect(record!.month).toBeInstanceOf(Date);
    // Wall-clock time of the query's zone: local midnight of 1 March.
    const month = record!.month as Date;
    expect([month.getFullYear(), month.getMonth(), month.getDate(), month.getHours()]).toEqual([2025, 2, 1, 0]);
    expect(record).toMatchObject({ revenue: 1234.5, orders: 17, vip: true, region: 'EMEA' });
    expect(typeof record!.revenue).toBe('number');
  });

  it('keeps SQL NULL as null in every kind of column', () => {
    const [record] = toChartRecords(columns, [[null, null, null, null, null]]);
    expect(Object.values(record!)).toEqual([null, null, null, null, null]);
  });

  it('reads numbers sent as numbers, negatives, exponents and booleans as 0/1 or f/t', () => {
    const records = toChartRecords(
      [
        { name: 'a', type: 'Double' },
        { name: 'b', type: 'Boolean' },
      ],
      [
        [-1.5e3, 'f'],
        ['+.5', '1'],
      ],
    );
    expect(records).toEqual([
      { a: -1500, b: false },
      { a: 0.5, b: true },
    ]);
  });

  it('keeps a column named __proto__ as a field', () => {
    const [record] = toChartRecords([{ name: '__proto__', type: 'Int64' }], [['3']]);
    expect(Object.keys(record!)).toEqual(['__proto__']);
    expect(record!['__proto__']).toBe(3);
  });

  it('refuses rows whose length does not match the schema', () => {
    expect(() => toChartRecords(columns, [['2025-01-01', '1']])).toThrow(
      /Row 1 has 2 cells but the schema has 5 columns/,
    );
    expect(() => toChartRecords(columns, ['not a row'])).toThrow(ResultDataError);
  });

  it('refuses a cell its column type cannot read, naming row and column', () => {
    let caught: unknown;
    try {
      toChartRecords(columns, [
        ['2025-01-01', '1', '2', 'true', 'x'],
        ['2025-02-01', 'lots', '2', 'true', 'x'],
      ]);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ResultDataError);
    expect(ServiceValidationError.isInstance(caught)).toBe(true);
    expect(caught).toMatchObject({ row: 1, column: 'revenue' });
    expect(() => toChartRecords(columns, [['yesterday', '1', '2', 'true', 'x']])).toThrow(
      /"yesterday" is not a temporal/,
    );
    expect(() => toChartRecords(columns, [['2025-01-01', '1', '2', 'maybe', 'x']])).toThrow(/is not a boolean/);
  });

  it('reads dates alone as local midnight and offsets as instants', () => {
    expect(parseTemporalCell('2024-02-29')!.getHours()).toBe(0);
    expect(parseTemporalCell('2024-02-29T10:00:00Z')!.toISOString()).toBe('2024-02-29T10:00:00.000Z');
    expect(parseTemporalCell('2024-02-29T10:00:00+0200')!.toISOString()).toBe('2024-02-29T08:00:00.000Z');
    expect(parseTemporalCell('2024-13-45')).toBeUndefined();
  });
});

describe('cellText', () => {
  it('writes JSON cells as JSON and survives cells nested past the stack', () => {
    expect(cellText({ a: [1] })).toBe('{"a":[1]}');
    let deep: unknown = 1;
    for (let index = 0; index < 200_000; index++) deep = [deep];
    expect(cellText(deep)).toBe('[…]');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(cellText(cyclic)).toBe('{…}');
  });
});

describe('toCsv', () => {
  it('writes a header and rows with CRLF, quoting commas, quotes and line breaks', () => {
    const csv = toCsv(
      [{ name: 'name' }, { name: 'note' }, { name: 'n', type: 'Int64' }],
      [
        ['Acme, Inc.', 'said "hi"', '12'],
        ['two\nlines', null, '-3.5'],
        [' padded ', '', '9007199254740993'],
      ],
    );
    expect(csv).toBe(
      'name,note,n\r\n"Acme, Inc.","said ""hi""",12\r\n"two\nlines",,-3.5\r\n" padded ",,9007199254740993\r\n',
    );
  });

  it.each([
    ['=HYPERLINK("http://evil.test","x")', `"'=HYPERLINK(""http://evil.test"",""x"")"`],
    ['+1+cmd|/C calc!A0', "'+1+cmd|/C calc!A0"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['\t=1', "'\t=1"],
    ['\r=1', `"'\r=1"`],
  ])('neutralizes the formula %j', (cell, field) => {
    expect(csvField(cell)).toBe(field);
  });

  it('leaves plain numbers alone, negatives included', () => {
    expect(csvField('-12.5')).toBe('-12.5');
    expect(csvField('+3')).toBe('+3');
    expect(csvField('1e-7')).toBe('1e-7');
  });

  it('round-trips any text through a CSV reader (formula prefixes aside)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.string(), { minLength: 2, maxLength: 2 }), { maxLength: 5 }), (rows) => {
        const read = readCsv(toCsv([{ name: 'a' }, { name: 'b' }], rows));
        expect(read[0]).toEqual(['a', 'b']);
        const expected = rows.map((row) =>
          row.map((cell) =>
            /^[=+\-@\t\r]/.test(cell) && !/^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/.test(cell) ? `'${cell}` : cell,
          ),
        );
        expect(read.slice(1)).toEqual(expected);
      }),
    );
  });

  it('makes a UTF-8 file with a byte order mark', async () => {
    const blob = toCsvBlob([{ name: 'città' }], [['Zürich']]);
    expect(blob.type).toBe('text/csv;charset=utf-8');
    const bytes = new Uint8Array(await blob.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes.slice(3))).toBe('città\r\nZürich\r\n');
  });

  it('names files after the query title', () => {
    expect(csvFileName('Revenue by month (2025)')).toBe('revenue-by-month-2025.csv');
    expect(csvFileName('Café ¿Qué?')).toBe('cafe-que.csv');
    expect(csvFileName('')).toBe('query.csv');
    expect(csvFileName(undefined)).toBe('query.csv');
  });
});

describe('toTsv', () => {
  it('a header row, one line per row, tabs and line breaks in cells as spaces, formulas neutralized', () => {
    const columns = [
      { name: 'name', type: 'String' },
      { name: 'total', type: 'Double' },
    ];
    const rows = [
      ['Acme\tCorp', '-12.5'],
      ['=HYPERLINK("x")', null],
      ['two\r\nlines', '1200'],
    ];
    expect(toTsv(columns, rows)).toBe('name\ttotal\nAcme Corp\t-12.5\n\'=HYPERLINK("x")\t\ntwo lines\t1200\n');
  });
});
