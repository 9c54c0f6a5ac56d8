// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../src/emulator';
import { recordSqlFixtures, withoutRandomIds, type SqlFixtureName } from '../../helpers/record-sql-tool-calls';
import recorded from '../../fixtures/sql-tool-calls.json';

describe('recorded serviceSqlApi fixtures', () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, chatPace: 'instant' });
  }, 30_000);
  afterAll(async () => {
    await emulator?.close();
  });

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
