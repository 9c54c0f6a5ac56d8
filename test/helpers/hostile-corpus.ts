/**
 * Hostile agent output, one line per case, read by the tests that prove the library holds: what
 * an attacker who controls the agent's answer (a poisoned data model, a prompt injection in the
 * data) could put in it. Add a case here and every test that reads the list runs it.
 */

/** Where every URL of the chart cases points: any request to it is a leak. */
export const EVIL_ORIGIN = 'https://evil.test';

/** A CSS `url()` colour naming `place`, as the SVG renderer would write it into `fill` or `stroke`. */
const url = (place: string) => `url(${EVIL_ORIGIN}/${place}.svg#paint)`;

/** A bar chart of the `ordersByStatus` rows (`status`, `orders`, `revenue`), for the cases to build on. */
export const BARS = {
  mark: 'bar',
  encoding: { x: { field: 'status', type: 'nominal' }, y: { field: 'orders', type: 'quantitative' } },
} as const;

/** What a hostile chart spec tries: to make the page send a request, or to freeze it. */
export type ChartThreat = 'request' | 'freeze';

/** A hostile Vega-Lite spec for `ResultChart`. */
export interface HostileChartSpec {
  /** What it tries, in words. */
  name: string;
  threat: ChartThreat;
  spec: Record<string, unknown>;
  /**
   * Rows to draw it with instead of the `ordersByStatus` fixture: that many rows of `id` (all
   * distinct), `status` (`completed`, `cancelled`, ...), `orders` and `day` (a Timestamp).
   */
  rows?: number;
}

const seq = (length: number) => Array.from({ length }, (_, index) => `f${index}`);

/** Agent-supplied chart specs that must neither reach out nor freeze the page (one line each). */
// prettier-ignore
export const HOSTILE_CHART_SPECS: readonly HostileChartSpec[] = [
  { name: 'mark fill url()', threat: 'request', spec: { ...BARS, mark: { type: 'bar', fill: url('mark-fill') } } },
  { name: 'mark stroke url()', threat: 'request', spec: { ...BARS, mark: { type: 'bar', stroke: url('mark-stroke'), strokeWidth: 2 } } },
  { name: 'mark color url()', threat: 'request', spec: { ...BARS, mark: { type: 'bar', color: url('mark-color') } } },
  { name: 'escaped url() (\\75rl)', threat: 'request', spec: { ...BARS, mark: { type: 'bar', fill: `\\75rl(${EVIL_ORIGIN}/escaped.svg#p)` } } },
  { name: 'encoding.color value', threat: 'request', spec: { ...BARS, encoding: { ...BARS.encoding, color: { value: url('color-value') } } } },
  { name: 'encoding.fill value', threat: 'request', spec: { ...BARS, encoding: { ...BARS.encoding, fill: { value: url('fill-value') } } } },
  { name: 'encoding.stroke value', threat: 'request', spec: { ...BARS, encoding: { ...BARS.encoding, stroke: { value: url('stroke-value') } } } },
  { name: 'encoding.color condition value', threat: 'request', spec: { ...BARS, encoding: { ...BARS.encoding, color: { condition: { test: 'true', value: url('condition') }, value: 'red' } } } },
  { name: 'encoding.color datum', threat: 'request', spec: { ...BARS, encoding: { ...BARS.encoding, color: { datum: url('datum') } } } },
  { name: 'encoding.fill datum without a scale', threat: 'request', spec: { ...BARS, encoding: { ...BARS.encoding, fill: { datum: url('datum-no-scale'), scale: null } } } },
  { name: 'colour from a calculated field without a scale', threat: 'request', spec: { ...BARS, transform: [{ calculate: `'${url('calculated')}'`, as: 'paint' }], encoding: { ...BARS.encoding, color: { field: 'paint', scale: null } } } },
  { name: 'colour scale range of url()', threat: 'request', spec: { ...BARS, encoding: { ...BARS.encoding, color: { field: 'status', scale: { range: [url('range-a'), url('range-b')] } } } } },
  { name: 'colour scale range from a field', threat: 'request', spec: { ...BARS, transform: [{ calculate: `'${url('range-field')}'`, as: 'paint' }], encoding: { ...BARS.encoding, color: { field: 'status', scale: { range: { field: 'paint' } } } } } },
  { name: 'mark fill expression', threat: 'request', spec: { ...BARS, mark: { type: 'bar', fill: { expr: `'${url('expr')}'` } } } },
  { name: 'config.mark.fill', threat: 'request', spec: { ...BARS, config: { mark: { fill: url('config-mark') } } } },
  { name: 'config.bar.stroke', threat: 'request', spec: { ...BARS, config: { bar: { stroke: url('config-bar') } } } },
  { name: 'config.background', threat: 'request', spec: { ...BARS, config: { background: url('config-background') } } },
  { name: 'top-level background', threat: 'request', spec: { ...BARS, background: url('background') } },
  { name: 'config.view.fill and stroke', threat: 'request', spec: { ...BARS, config: { view: { fill: url('view-fill'), stroke: url('view-stroke') } } } },
  { name: 'config.style fill', threat: 'request', spec: { ...BARS, mark: { type: 'bar', style: 'evil' }, config: { style: { evil: { fill: url('style') } } } } },
  { name: 'config.range.category', threat: 'request', spec: { ...BARS, encoding: { ...BARS.encoding, color: { field: 'status' } }, config: { range: { category: [url('category')] } } } },
  { name: 'title.color and subtitleColor', threat: 'request', spec: { ...BARS, title: { text: 'T', subtitle: 'S', color: url('title'), subtitleColor: url('subtitle') } } },
  { name: 'axis colours', threat: 'request', spec: { ...BARS, encoding: { ...BARS.encoding, x: { ...BARS.encoding.x, axis: { labelColor: url('label'), gridColor: url('grid'), domainColor: url('domain'), tickColor: url('tick'), titleColor: url('axis-title') } } } } },
  { name: 'config.axis and legend colours', threat: 'request', spec: { ...BARS, encoding: { ...BARS.encoding, color: { field: 'status' } }, config: { axis: { labelColor: url('config-axis') }, legend: { labelColor: url('legend'), symbolFillColor: url('symbol') } } } },
  { name: 'gradient stops', threat: 'request', spec: { ...BARS, mark: { type: 'bar', color: { gradient: 'linear', stops: [{ offset: 0, color: url('stop') }, { offset: 1, color: 'red' }] } } } },
  { name: 'mark href', threat: 'request', spec: { ...BARS, mark: { type: 'bar', href: `${EVIL_ORIGIN}/href` } } },
  { name: 'encoding href', threat: 'request', spec: { ...BARS, transform: [{ calculate: `'${EVIL_ORIGIN}/href-field'`, as: 'link' }], encoding: { ...BARS.encoding, href: { field: 'link' } } } },
  { name: 'image marks', threat: 'request', spec: { layer: [BARS, { mark: { type: 'image', width: 20, height: 20, url: `${EVIL_ORIGIN}/image.png` }, encoding: { ...BARS.encoding, url: { value: `${EVIL_ORIGIN}/image-channel.png` } } }] } },
  { name: 'mark cursor url()', threat: 'request', spec: { ...BARS, mark: { type: 'bar', cursor: `url(${EVIL_ORIGIN}/cursor.png), pointer` } } },
  { name: 'cursor parameter', threat: 'request', spec: { ...BARS, params: [{ name: 'cursor', value: `url(${EVIL_ORIGIN}/cursor-param.png), auto` }] } },
  { name: 'config.locale', threat: 'request', spec: { ...BARS, config: { locale: { number: { decimal: '.', thousands: ',', grouping: [3], currency: [url('locale'), ''] }, time: { dateTime: url('time') } } } } },
  { name: 'usermeta with URLs', threat: 'request', spec: { ...BARS, usermeta: { embedOptions: { loader: { baseURL: `${EVIL_ORIGIN}/` }, config: `${EVIL_ORIGIN}/config.json` }, image: url('usermeta') } } },
  { name: 'data url', threat: 'request', spec: { ...BARS, data: { url: `${EVIL_ORIGIN}/data.json` }, transform: [{ lookup: 'status', from: { data: { url: `${EVIL_ORIGIN}/lookup.json` }, key: 'status', fields: ['x'] } }] } },
  { name: 'sequence(0, 50000000) flattened', threat: 'freeze', spec: { ...BARS, transform: [{ calculate: 'sequence(0, 50000000)', as: 'n' }, { flatten: ['n'] }] } },
  { name: 'a sequence data generator of 1e8', threat: 'freeze', spec: { ...BARS, data: { sequence: { start: 0, stop: 1e8, as: 'orders' } }, encoding: { y: { field: 'orders', type: 'quantitative' } } } },
  { name: 'a 1e7 x 1e7 canvas', threat: 'freeze', spec: { ...BARS, width: 1e7, height: 1e7 } },
  { name: 'steps of 1e7 pixels', threat: 'freeze', spec: { ...BARS, width: { step: 1e7 }, config: { view: { continuousWidth: 1e7, continuousHeight: 1e7 } } } },
  { name: 'bin with maxbins 1e9', threat: 'freeze', spec: { mark: 'bar', encoding: { x: { field: 'orders', bin: { maxbins: 1e9 } }, y: { aggregate: 'count' } } } },
  { name: 'bin with a step of 1e-9', threat: 'freeze', spec: { mark: 'bar', encoding: { x: { field: 'orders', bin: { step: 1e-9 } }, y: { aggregate: 'count' } } } },
  { name: 'tickCount 1e7', threat: 'freeze', spec: { ...BARS, encoding: { ...BARS.encoding, y: { ...BARS.encoding.y, axis: { tickCount: 1e7 } } } } },
  { name: 'repeat over 5,000 fields', threat: 'freeze', spec: { repeat: seq(5000), spec: { mark: 'bar', encoding: { x: { field: { repeat: 'repeat' }, type: 'nominal' }, y: { field: 'orders', type: 'quantitative' } } } } },
  { name: 'facet over 3,000 ids', threat: 'freeze', rows: 3000, spec: { ...BARS, encoding: { ...BARS.encoding, facet: { field: 'id', type: 'nominal' } } } },
  { name: 'facet over a generated field', threat: 'freeze', spec: { ...BARS, transform: [{ calculate: 'sequence(0, 3000)', as: 'n' }, { flatten: ['n'] }], encoding: { ...BARS.encoding, row: { field: 'n', type: 'nominal' } } } },
  { name: 'concat of 5,000 charts', threat: 'freeze', spec: { concat: Array.from({ length: 5000 }, () => BARS) } },
  { name: 'timeUnit over 1e6 rows', threat: 'freeze', rows: 1_000_000, spec: { mark: 'line', encoding: { x: { field: 'day', timeUnit: 'yearmonthdatehoursminutesseconds', type: 'temporal' }, y: { aggregate: 'count' } } } },
  { name: 'timeUnit over 1e6 generated rows', threat: 'freeze', spec: { mark: 'line', transform: [{ calculate: 'sequence(0, 1000000)', as: 't' }, { flatten: ['t'] }, { calculate: 'datetime(2025, 0, 1) + datum.t * 1000', as: 'when' }], encoding: { x: { field: 'when', timeUnit: 'yearmonthdatehoursminutesseconds', type: 'temporal' }, y: { aggregate: 'count' } } } },
  { name: 'impute over 1e8 keys', threat: 'freeze', spec: { mark: 'line', transform: [{ impute: 'orders', key: 'k', keyvals: { start: 0, stop: 1e8 } }], encoding: { x: { field: 'k', type: 'quantitative' }, y: { field: 'orders', type: 'quantitative' } } } },
  { name: 'timeSequence of every millisecond', threat: 'freeze', spec: { ...BARS, transform: [{ calculate: "timeSequence('millisecond', 0, 1e12)", as: 'n' }, { flatten: ['n'] }] } },
  { name: 'pad() to a gigabyte', threat: 'freeze', spec: { ...BARS, transform: [{ calculate: "pad('', 1e9)", as: 'big' }] } },
  { name: 'format() to a gigabyte', threat: 'freeze', spec: { ...BARS, transform: [{ calculate: "format(1, '01000000000d')", as: 'big' }] } },
  { name: 'axis format to a gigabyte', threat: 'freeze', spec: { ...BARS, encoding: { ...BARS.encoding, y: { ...BARS.encoding.y, axis: { format: '01000000000d' } } } } },
  { name: 'join() of a generated array', threat: 'freeze', spec: { ...BARS, transform: [{ calculate: `join(sequence(0, 50000), '${'x'.repeat(10_000)}')`, as: 'big' }] } },
  { name: 'density with 1e9 steps', threat: 'freeze', spec: { mark: 'area', transform: [{ density: 'orders', steps: 1e9 }], encoding: { x: { field: 'value', type: 'quantitative' }, y: { field: 'density', type: 'quantitative' } } } },
  { name: 'quantile step 1e-9', threat: 'freeze', spec: { mark: 'point', transform: [{ quantile: 'orders', step: 1e-9 }], encoding: { x: { field: 'prob', type: 'quantitative' }, y: { field: 'value', type: 'quantitative' } } } },
];
