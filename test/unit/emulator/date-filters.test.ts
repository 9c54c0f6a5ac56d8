// @vitest-environment node
/**
 * The date operators of `/v1/load` are consistent: with the same date, `afterDate` and
 * `beforeOrOnDate` split the rows that have a date in two (no row in both, none in neither), and
 * so do `beforeDate` and `afterOrOnDate`. Checked through this library's data client and through
 * the service's published JavaScript client, on orders placed at every time of day.
 */
import cube, { type Query } from '@cubejs-client/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDataClient } from '../../../src/core/data-client';
import type { Filter, FilterOperator } from '../../../src/core/protocol/data';
import { useEmulator } from '../../helpers/emulator';
import { dataToken } from './helpers';

let token: string;

const emulator = useEmulator();

beforeAll(async () => {
  token = await dataToken();
});

/** Dates inside the data (2024-01-01 to 2025-12-31), at its ends, outside it, and with a time of day. */
const DATES = ['2024-01-01', '2024-06-15', '2025-06-30', '2025-12-31', '2023-12-31', '2025-03-10T13:45:00'];

/** The two operators that split the rows, for one date. */
const PAIRS: [FilterOperator, FilterOperator][] = [
  ['afterDate', 'beforeOrOnDate'],
  ['beforeDate', 'afterOrOnDate'],
];

type Count = (filters: Filter[]) => Promise<number>;

const CLIENTS: [string, () => Count][] = [
  [
    'the data client',
    () => {
      const client = createDataClient({ url: emulator.dataUrl, token });
      return async (filters) =>
        Number((await client.load({ measures: ['orders.count'], filters })).data[0]?.['orders.count'] ?? 0);
    },
  ],
  [
    '@cubejs-client/core',
    () => {
      const client = cube(token, { apiUrl: `${emulator.dataUrl}/v1` });
      return async (filters) =>
        Number(
          (await client.load({ measures: ['orders.count'], filters } as Query)).tablePivot()[0]?.['orders.count'] ?? 0,
        );
    },
  ],
];

describe('date filters split the rows in two', () => {
  for (const [name, makeCount] of CLIENTS) {
    it(`through ${name}`, async () => {
      const count = makeCount();
      const dated = await count([{ member: 'orders.created_at', operator: 'set' }]);
      expect(dated).toBeGreaterThan(0);
      const split: string[] = [];
      for (const date of DATES) {
        for (const [first, second] of PAIRS) {
          const filter = (operator: FilterOperator): Filter[] => [
            { member: 'orders.created_at', operator, values: [date] },
          ];
          const [a, b] = [await count(filter(first)), await count(filter(second))];
          split.push(`${first}/${second} ${date}: ${a} + ${b} ${a + b === dated ? '=' : '≠'} ${dated}`);
        }
      }
      expect(split.filter((line) => line.includes('≠'))).toEqual([]);
    });
  }
});
