/**
 * What a SQL tool call says about its columns beyond `name` and `column_type`: titles from the
 * metadata tool's members (`serviceMeta`), matched by name or through the SQL's `AS` aliases,
 * and number formats from the agent's chart spec (a field it formats as `$,.2f` is currency).
 *
 * @module
 */
import type { FormatColumn } from '../../core/format-value';
import type { ServiceMetaResult } from '../../core/protocol/tools';

/** Per column name, what the views should know about it. */
export type ColumnFormats = Record<string, Partial<Omit<FormatColumn, 'name' | 'type'>>>;

/** `MEASURE(view.member) AS alias`, `ROUND(MEASURE(view.member), 2) AS alias` or `view.member AS alias`. */
const ALIAS = /\b([A-Za-z_]\w*\.[A-Za-z_]\w*)\s*\)*(?:\s*,\s*\d+\s*\))?\s+AS\s+"?([A-Za-z_]\w*)"?/gi;

/**
 * Titles of columns from `serviceMeta` results: a column named like a member (`orders.status` or
 * `status`) or aliased to one in `sql` gets the member's title.
 */
export function columnTitlesFromMeta(
  meta: readonly ServiceMetaResult[] | undefined,
  sql: string | undefined,
): ColumnFormats {
  const titles = new Map<string, string>();
  for (const result of meta ?? [])
    for (const cube of result.cubes)
      for (const member of cube.members) {
        if (!member.title) continue;
        titles.set(member.name, member.title);
        const short = member.name.slice(member.name.lastIndexOf('.') + 1);
        if (!titles.has(short)) titles.set(short, member.title);
      }
  const formats = Object.create(null) as ColumnFormats;
  for (const [name, title] of titles) formats[name] = { title };
  for (const match of (sql ?? '').matchAll(ALIAS)) {
    const title = titles.get(match[1]!);
    if (title) formats[match[2]!] = { title };
  }
  return formats;
}

/** Number formats of fields from a Vega-Lite spec's d3 `format`s: `$` is currency (USD), `%` percent. */
export function formatsFromChartSpec(spec: string | undefined): ColumnFormats {
  // No prototype: a field named `__proto__` stays a field.
  const formats = Object.create(null) as ColumnFormats;
  if (!spec || spec.length > 100_000) return formats;
  let parsed: unknown;
  try {
    parsed = JSON.parse(spec);
  } catch {
    return formats;
  }
  const visit = (node: unknown, depth: number): void => {
    if (depth > 20 || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item, depth + 1);
      return;
    }
    const record = node as Record<string, unknown>;
    const field = record['field'];
    const format = record['format'] ?? (record['axis'] as Record<string, unknown> | undefined)?.['format'];
    if (typeof field === 'string' && typeof format === 'string' && !Object.hasOwn(formats, field)) {
      if (format.includes('$')) formats[field] = { format: 'currency', currency: 'USD' };
      else if (format.endsWith('%')) formats[field] = { format: 'percent' };
    }
    for (const value of Object.values(record)) visit(value, depth + 1);
  };
  visit(parsed, 0);
  return formats;
}
