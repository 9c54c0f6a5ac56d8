/**
 * Records real `serviceSqlApi` tool calls from a fresh emulator into
 * `test/fixtures/sql-tool-calls.json` (stories and browser tests read it):
 *
 *   node scripts/run-ts.mjs scripts/record-sql-fixtures.ts
 */
import { writeFileSync } from 'node:fs';
import { startEmulator } from '../src/emulator';
import { recordSqlFixtures } from '../test/helpers/record-sql-tool-calls';

const emulator = await startEmulator({ port: 0, chatPace: 'instant' });
try {
  const fixtures = await recordSqlFixtures(emulator.aiUrl, emulator.apiKey);
  writeFileSync('test/fixtures/sql-tool-calls.json', `${JSON.stringify(fixtures, null, 2)}\n`);
  console.log(`recorded ${Object.keys(fixtures).length} serviceSqlApi calls into test/fixtures/sql-tool-calls.json`);
} finally {
  await emulator.close();
}
