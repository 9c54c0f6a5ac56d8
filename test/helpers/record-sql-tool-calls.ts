/**
 * Real `serviceSqlApi` tool calls, captured from the emulator's agent: the questions below are
 * asked on a live emulator (API key auth, instant pace) and the tool call lines of each answer
 * kept as the service sent them (wire shape: `input` and `result` as JSON text).
 *
 * `scripts/record-sql-fixtures.ts` writes them to `test/fixtures/sql-tool-calls.json` for the
 * stories and browser tests (which cannot start an emulator in the page);
 * `test/unit/results/fixtures.test.ts` checks that file still matches what the emulator answers.
 */
import { createMessageId } from '../../src/core/protocol/chat';
import type { ToolCallWire } from '../../src/core/protocol/chat';
import { readNdjson } from '../../src/core/ndjson';
import { SERVICE_SQL_API_TOOL } from '../../src/core/protocol/tools';

/** The questions, by fixture name: each intent of the agent that runs SQL. */
export const SQL_QUESTIONS = {
  revenueByMonth: 'Show me revenue by month in 2025',
  ordersByStatus: 'How many orders are in each status?',
  revenueByRegion: 'What is revenue by region?',
  topCustomers: 'Who are our top 250 customers?',
  margin: 'What is our profit margin?',
} as const;

/** A fixture name. */
export type SqlFixtureName = keyof typeof SQL_QUESTIONS;

/** The captured tool calls: the first line of each call (running) and its last (complete). */
export interface RecordedSqlToolCall {
  question: string;
  running: ToolCallWire;
  complete: ToolCallWire;
}

/** Asks `question` on the emulator at `aiUrl` and returns its `serviceSqlApi` call, running and complete. */
export async function recordSqlToolCall(aiUrl: string, apiKey: string, question: string): Promise<RecordedSqlToolCall> {
  const response = await fetch(`${aiUrl}/chat/stream-chat-state`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Api-Key ${apiKey}`, 'x-emulator-pace': 'instant' },
    body: JSON.stringify({
      input: question,
      messageId: createMessageId(),
      sessionSettings: { externalId: 'fixtures@acme.test' },
    }),
  });
  if (!response.ok || !response.body) throw new Error(`chat answered ${response.status}`);
  const calls: ToolCallWire[] = [];
  for await (const line of readNdjson(response.body)) {
    const toolCall = (line as { toolCall?: ToolCallWire }).toolCall;
    if (toolCall?.name === SERVICE_SQL_API_TOOL) calls.push(toolCall);
  }
  const running = calls.find((call) => call.result == null);
  const complete = calls.find((call) => call.result != null);
  if (!running || !complete) throw new Error(`no serviceSqlApi call in the answer to ${JSON.stringify(question)}`);
  return { question, running, complete };
}

/** Every fixture, recorded from the emulator at `aiUrl`. */
export async function recordSqlFixtures(
  aiUrl: string,
  apiKey: string,
): Promise<Record<SqlFixtureName, RecordedSqlToolCall>> {
  const entries = [];
  for (const [name, question] of Object.entries(SQL_QUESTIONS))
    entries.push([name, await recordSqlToolCall(aiUrl, apiKey, question)] as const);
  return Object.fromEntries(entries) as Record<SqlFixtureName, RecordedSqlToolCall>;
}

/** Values that differ on every run (ids), blanked so two recordings compare equal. */
export function withoutRandomIds(call: ToolCallWire): unknown {
  const input = JSON.parse(call.input ?? 'null') as Record<string, unknown> | null;
  const result = call.result == null ? call.result : (JSON.parse(call.result) as Record<string, unknown>);
  if (input && 'memoryId' in input) input.memoryId = '';
  if (result && typeof result === 'object' && 'uuid' in result) result.uuid = '';
  return { name: call.name, input, result };
}
