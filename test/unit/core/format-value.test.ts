import { describe, expect, it } from 'vitest';
import { columnTitle, describeColumn, formatValue, humanizeName, pluralForm, type FormatColumn } from '../../../src';

const column = (type: string, values: unknown[], extra: Partial<FormatColumn> = {}): FormatColumn =>
  describeColumn({ name: 'c', type, ...extra }, values);

describe('humanizeName and columnTitle', () => {
  it.each([
    ['total_revenue', 'Total revenue'],
    ['orders.created_at', 'Created at'],
    ['customerId', 'Customer ID'],
    ['AOV', 'AOV'],
    ['order-count', 'Order count'],
    ['Revenue (USD)', 'Revenue (USD)'],
    ['already titled', 'Already titled'],
  ])('%s reads as %s', (name, title) => expect(humanizeName(name)).toBe(title));

  it('prefers the data model title', () => {
    expect(columnTitle({ name: 'revenue', title: 'Total revenue' })).toBe('Total revenue');
    expect(columnTitle({ name: 'revenue', title: ' ' })).toBe('Revenue');
  });
});

describe('formatValue', () => {
  it('gives every number of a column the same decimals, in the locale', () => {
    const values = ['1756596.21', '12', '0.5'];
    const double = column('Double', values);
    expect(values.map((value) => formatValue(value, double, 'en-US'))).toEqual(['1,756,596.21', '12.00', '0.50']);
    expect(values.map((value) => formatValue(value, double, 'de-DE'))).toEqual(['1.756.596,21', '12,00', '0,50']);
    // Floating-point noise is cut at four decimals.
    expect(formatValue('0.30000000000000004', column('Double', ['0.30000000000000004']), 'en-US')).toBe('0.3000');
  });

  it('keeps every digit of 64-bit integers', () => {
    expect(formatValue('9007199254740993', column('Int64', ['9007199254740993']), 'en-US')).toBe(
      '9,007,199,254,740,993',
    );
  });

  it('shows currency and percent where the column format says so', () => {
    const money = column('Double', ['10.5', '3'], { format: 'currency' });
    expect(formatValue('10.5', money, 'en-US')).toBe('$10.50');
    expect(formatValue('3', money, 'en-US')).toBe('$3.00');
    expect(formatValue('3', { ...money, currency: 'EUR' }, 'de-DE')).toBe('3,00\u00a0€');
    expect(formatValue('0.25', { name: 'p', type: 'Double', format: 'percent', fractionDigits: 0 }, 'en-US')).toBe(
      '25%',
    );
  });

  it('shows dates without ISO notation, as much of them as the column carries', () => {
    const months = ['2025-01-01T00:00:00.000', '2025-02-01T00:00:00.000'];
    expect(formatValue(months[0], column('Timestamp', months), 'en-US')).toBe('Jan 2025');
    expect(formatValue(months[0], column('Timestamp', months), 'de-DE')).toBe('Jan. 2025');
    const days = ['2025-01-03T00:00:00.000', '2025-02-01T00:00:00.000'];
    expect(formatValue(days[0], column('Timestamp', days), 'en-US')).toBe('Jan 3, 2025');
    const times = ['2025-01-03T14:05:00.000'];
    expect(formatValue(times[0], column('Timestamp', times), 'en-US')).toBe('Jan 3, 2025, 2:05 PM');
    const years = ['2024-01-01T00:00:00.000', '2025-01-01T00:00:00.000'];
    expect(formatValue(years[1], column('Timestamp', years), 'en-US')).toBe('2025');
    // One first-of-month value is a day, unless the column is named for months.
    expect(formatValue(months[0], column('Timestamp', months.slice(0, 1)), 'en-US')).toBe('Jan 1, 2025');
    expect(
      formatValue(months[0], describeColumn({ name: 'order_month', type: 'Timestamp' }, months.slice(0, 1)), 'en-US'),
    ).toBe('Jan 2025');
  });

  it('leaves text, booleans and unreadable numbers as they are, and null empty', () => {
    expect(formatValue('EMEA', { name: 'r', type: 'String' }, 'en-US')).toBe('EMEA');
    expect(formatValue('true', { name: 'b', type: 'Boolean' }, 'en-US')).toBe('true');
    expect(formatValue('many', { name: 'n', type: 'Int64' }, 'en-US')).toBe('many');
    expect(formatValue(null, { name: 'n', type: 'Int64' }, 'en-US')).toBe('');
  });
});

describe('pluralForm', () => {
  it('picks the locale plural category', () => {
    const rows = { one: '{total} row', other: '{total} rows' };
    expect(pluralForm(rows, 1, 'en-US')).toBe('{total} row');
    expect(pluralForm(rows, 2, 'en-US')).toBe('{total} rows');
    expect(pluralForm({ one: 'wiersz', few: 'wiersze', many: 'wierszy', other: 'wiersza' }, 3, 'pl')).toBe('wiersze');
    expect(pluralForm('{total} rows', 1, 'en-US')).toBe('{total} rows');
  });
});
