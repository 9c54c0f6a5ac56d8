// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  MAX_SPEC_DEPTH,
  MAX_SPEC_LENGTH,
  RESULT_DATA_NAME,
  baseConfig,
  createRefusingLoader,
  formatTooltip,
  parseVegaLiteSpec,
  prepareSpec,
  type ChartTheme,
} from '../../../src/components/results/vega';
import { DEFAULT_CHART_STYLE } from '../../../src/core/protocol/tools';
import { sqlWire } from '../../fixtures/sql-tool-calls';

const LIGHT: ChartTheme = { dark: false, text: '#111', muted: '#555', border: '#ccc' };
const DARK: ChartTheme = { dark: true, text: '#eceef2', muted: '#a3a9b5', border: '#363b46' };
const records = [{ month: new Date(2025, 0, 1), revenue: 10 }];

function parsed(spec: unknown) {
  const result = parseVegaLiteSpec(spec);
  if (!result.ok) throw new Error(result.problem.message);
  return result.spec;
}

/** Every value of `key` anywhere in `node`. */
function valuesOf(node: unknown, key: string): unknown[] {
  if (Array.isArray(node)) return node.flatMap((item) => valuesOf(item, key));
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([name, value]) => [...(name === key ? [value] : []), ...valuesOf(value, key)]);
}

describe('parseVegaLiteSpec', () => {
  it('reads the agent spec of a recorded call', () => {
    const input = JSON.parse(sqlWire('revenueByMonth').input!) as { vegaSpec: string };
    expect(parseVegaLiteSpec(input.vegaSpec)).toMatchObject({ ok: true, spec: { mark: { type: 'line' } } });
  });

  it(`refuses specs longer than ${MAX_SPEC_LENGTH} characters or nested deeper than ${MAX_SPEC_DEPTH} levels`, () => {
    const long = JSON.stringify({ mark: 'bar', description: 'x'.repeat(MAX_SPEC_LENGTH) });
    expect(parseVegaLiteSpec(long)).toMatchObject({
      ok: false,
      problem: { kind: 'spec', message: expect.stringContaining('longer than') },
    });
    const nest = (levels: number) =>
      `{"mark":"bar","usermeta":${'{"a":'.repeat(levels - 1)}1${'}'.repeat(levels - 1)}}`;
    expect(parseVegaLiteSpec(nest(MAX_SPEC_DEPTH))).toMatchObject({ ok: true });
    expect(parseVegaLiteSpec(nest(MAX_SPEC_DEPTH + 1))).toMatchObject({
      ok: false,
      problem: { message: expect.stringContaining('deeper than 64') },
    });
    // A bomb far past any stack: refused, not a crash.
    expect(parseVegaLiteSpec(nest(200_000))).toMatchObject({ ok: false, problem: { kind: 'spec' } });
  });

  it('reports text that is not JSON', () => {
    expect(parseVegaLiteSpec('{"mark": "bar",')).toMatchObject({ ok: false, problem: { kind: 'json' } });
  });

  it.each([
    ['an array', '[1,2]'],
    ['a string', '"bar"'],
    ['a Vega spec by $schema', JSON.stringify({ $schema: 'https://vega.github.io/schema/vega/v5.json', mark: 'bar' })],
    ['a Vega spec by shape', JSON.stringify({ marks: [{ type: 'rect' }], signals: [] })],
    ['no mark at all', JSON.stringify({ encoding: {} })],
  ])('refuses %s', (_, text) => {
    expect(parseVegaLiteSpec(text)).toMatchObject({ ok: false, problem: { kind: 'spec' } });
  });
});

describe('prepareSpec', () => {
  it('replaces every data source (top level, layers, lookups) with the injected rows', () => {
    const spec = parsed({
      data: { url: 'https://evil.test/data.csv' },
      datasets: { stolen: [{ a: 1 }] },
      layer: [
        { data: { values: [{ revenue: 999 }] }, mark: 'bar' },
        { data: { name: 'stolen' }, mark: 'line' },
        {
          mark: 'point',
          transform: [{ lookup: 'id', from: { data: { url: 'https://evil.test/lookup.json' }, key: 'id' } }],
        },
      ],
    });
    const prepared = prepareSpec(spec, records, { description: 'd', theme: LIGHT });
    for (const data of valuesOf(prepared, 'data')) expect(data).toEqual({ name: RESULT_DATA_NAME });
    expect(valuesOf(prepared, 'data')).toHaveLength(4);
    expect(prepared.datasets).toEqual({ [RESULT_DATA_NAME]: records });
    expect(JSON.stringify(prepared)).not.toContain('evil.test');
    expect(JSON.stringify(prepared)).not.toContain('999');
  });

  it('removes usermeta.embedOptions and keeps the rest of usermeta', () => {
    const spec = parsed({
      mark: 'bar',
      usermeta: { embedOptions: { ast: false, loader: { baseURL: 'https://evil.test' } }, note: 'kept' },
    });
    const prepared = prepareSpec(spec, records, { description: 'd', theme: LIGHT });
    expect(prepared.usermeta).toEqual({ note: 'kept' });
  });

  it('drops $schema, adds a description when there is none, keeps the spec untouched', () => {
    const spec = parsed({ $schema: 'https://vega.github.io/schema/vega-lite/v5.json', mark: 'bar' });
    const prepared = prepareSpec(spec, records, { description: 'Chart: Revenue', theme: LIGHT });
    expect(prepared).not.toHaveProperty('$schema');
    expect(prepared.description).toBe('Chart: Revenue');
    expect(spec.$schema).toBeDefined();
    expect(
      prepareSpec(parsed({ mark: 'bar', description: 'Own' }), records, { description: 'x', theme: LIGHT }).description,
    ).toBe('Own');
  });

  it('keeps the official style in light mode and puts the theme text colour over it in dark mode', () => {
    const input = JSON.parse(sqlWire('ordersByStatus').input!) as { vegaSpec: string };
    const light = prepareSpec(parsed(input.vegaSpec), records, { description: 'd', theme: LIGHT });
    expect(light.config).toMatchObject({ axis: { labelColor: DEFAULT_CHART_STYLE.labelColor } });
    const dark = prepareSpec(parsed(input.vegaSpec), records, { description: 'd', theme: DARK });
    expect(dark.config).toMatchObject({
      background: 'transparent',
      axis: { labelColor: DARK.text, titleColor: DARK.text, labelFont: DEFAULT_CHART_STYLE.font },
      legend: { labelColor: DARK.text },
      title: { color: DARK.text },
      range: { category: [...DEFAULT_CHART_STYLE.palette] },
    });
  });

  it("a brand's font and colour (--service-chart-font, --service-chart-accent) go over the agent's default style", () => {
    const input = JSON.parse(sqlWire('ordersByStatus').input!) as { vegaSpec: string };
    const brand: ChartTheme = { ...LIGHT, brandFont: 'Georgia, serif', accent: '#7c3aed' };
    const branded = prepareSpec(parsed(input.vegaSpec), records, { description: 'd', theme: brand });
    expect(branded.config).toMatchObject({
      font: 'Georgia, serif',
      axis: { labelFont: 'Georgia, serif', titleFont: 'Georgia, serif', labelColor: DEFAULT_CHART_STYLE.labelColor },
      legend: { labelFont: 'Georgia, serif' },
      title: { font: 'Georgia, serif' },
      mark: { color: '#7c3aed' },
      range: { category: ['#7c3aed', ...DEFAULT_CHART_STYLE.palette.slice(1)] },
    });
    // Only what is set: a colour alone leaves the fonts alone.
    const colourOnly = prepareSpec(parsed(input.vegaSpec), records, {
      description: 'd',
      theme: { ...LIGHT, brandFont: '', accent: '#7c3aed' },
    });
    expect(colourOnly.config).toMatchObject({ font: DEFAULT_CHART_STYLE.font, mark: { color: '#7c3aed' } });
  });

  it('gives a base config with the official default style', () => {
    expect(baseConfig()).toMatchObject({
      font: DEFAULT_CHART_STYLE.font,
      axis: { labelColor: DEFAULT_CHART_STYLE.labelColor },
      range: { category: [...DEFAULT_CHART_STYLE.palette] },
    });
  });
});

describe('the refusing loader', () => {
  it('refuses loads, sanitizing (images, links), http and files', async () => {
    const loader = createRefusingLoader();
    await expect(loader.load('https://evil.test/a.json')).rejects.toThrow(/refused https:\/\/evil.test/);
    await expect(loader.sanitize('javascript:alert(1)')).rejects.toThrow(/refused/);
    await expect(loader.http('https://evil.test')).rejects.toThrow(/refused/);
    await expect(loader.file('/etc/passwd')).rejects.toThrow(/refused/);
  });
});

describe('formatTooltip', () => {
  it('escapes HTML and drops image fields', () => {
    const html = formatTooltip({
      title: '<b>t</b>',
      image: 'https://evil.test/i.png',
      '<key>': '<img src=x onerror=alert(1)>',
    });
    expect(html).toBe(
      '<h2>&lt;b&gt;t&lt;/b&gt;</h2><table><tr><td class="key">&lt;key&gt;</td><td class="value">&lt;img src=x onerror=alert(1)&gt;</td></tr></table>',
    );
    expect(html).not.toContain('evil.test');
    expect(formatTooltip('<script>')).toBe('&lt;script&gt;');
  });
});
