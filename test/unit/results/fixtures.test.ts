// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { recordSqlFixtures, withoutRandomIds, type SqlFixtureName } from '../../helpers/record-sql-tool-calls';
import recorded from '../../fixtures/sql-tool-calls.json';
import { useEmulator } from '../../helpers/emulator';

describe('recorded serviceSqlApi fixtures', () => {
  const emulator = useEmulator({ port: 0, chatPace: 'instant' });

  it('match what the emulator answers today (ids aside): re-record with scripts/record-sql-fixtures.ts', async () => {
    const live = await recordSqlFixtures(emulator.aiUrl, emulator.apiKey);
    for (const name of Object.keys(recorded) as SqlFixtureName[]) {
      expect(withoutRandomIds(live[name].running), `${name} (running)`).toEqual(
        withoutRandomIds(recorded[name].running),
      );
      expect(withoutRandomIds(live[name].complete), `${name} (complete)`).toEqual(
        withoutRandomIds(recorded[name].complete),
      );
    }
  }, 30_000);
});
