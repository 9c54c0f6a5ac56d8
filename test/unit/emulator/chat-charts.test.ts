// @vitest-environment node
/**
 * The charts of the emulator's agent, drawn by Vega from the rows of the answer as the chat draws
 * them (`toChartRecords`): a month chart labels each month once, at any width and in any time
 * zone, rather than repeating a month's name on weekly ticks.
 */
import { describe, expect, it } from 'vitest';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { createChatClient } from '../../../src/core';
import { toChartRecords } from '../../../src/core/result-data';
import { useEmulator } from '../../helpers/emulator';

const emulator = useEmulator({ port: 0, chatPace: 'instant' });

/** The spec and the chart records of the agent's SQL answer to `question`. */
async function chartOf(question: string): Promise<{ spec: TopLevelSpec; records: Record<string, unknown>[] }> {
  const client = createChatClient({
    url: emulator.aiUrl,
    auth: { apiKey: emulator.apiKey },
    sessionSettings: { externalId: 'ann@partner.example' },
  });
  for await (const line of client.stream({ input: question })) {
    const call = (line as { toolCall?: { name: string; input: string; result?: string } }).toolCall;
    if (call?.name !== 'serviceSqlApi' || call.result === undefined) continue;
    const result = JSON.parse(call.result) as { schema: { name: string; column_type: string }[]; data: unknown[] };
    const columns = result.schema.map((column) => ({ name: column.name, type: column.column_type }));
    const input = JSON.parse(call.input) as { vegaSpec: string };
    return { spec: JSON.parse(input.vegaSpec) as TopLevelSpec, records: toChartRecords(columns, result.data) };
  }
  throw new Error(`no serviceSqlApi result for ${question}`);
}

/** The x-axis labels Vega shows (labels hidden to avoid overlap left out) at `width` pixels. */
async function monthLabels(chart: { spec: TopLevelSpec; records: Record<string, unknown>[] }, width: number) {
  const spec = { ...chart.spec, width, data: { values: chart.records } } as TopLevelSpec;
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return [...svg.matchAll(/<text([^>]*)>([A-Z][a-z]{2} \d{4})<\/text>/g)]
    .filter(([, attributes]) => !/opacity="0"/.test(attributes!))
    .map(([, , label]) => label!);
}

describe('month charts of the emulator agent', () => {
  it.each([
    ['Show revenue by month for the last 3 months', 3],
    ['Show revenue by month for the last 6 months', 6],
    ['Show revenue by month in 2025', 12],
    ['Show revenue by month', 24],
  ])('%s: no month labelled twice; every month when there is room', async (question, months) => {
    const chart = await chartOf(question);
    expect(chart.records).toHaveLength(months);
    const expected = chart.records.map((record) =>
      (record['month'] as Date).toLocaleDateString('en-US', { month: 'short', year: 'numeric' }),
    );
    for (const width of [320, 480, 720]) {
      const labels = await monthLabels(chart, width);
      // Labels that would overlap are left out (every other one), never repeated or reordered.
      expect(labels[0], `${width}px`).toBe(expected[0]);
      expect(labels, `${width}px`).toEqual(expected.filter((label) => labels.includes(label)));
      expect(new Set(labels).size, `${width}px`).toBe(labels.length);
    }
    expect(await monthLabels(chart, 100 * months)).toEqual(expected);
  });
});
