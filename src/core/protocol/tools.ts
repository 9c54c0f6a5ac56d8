/**
 * Tool payloads of the analyst agent (docs/protocol.md 2.8, 7, behaviour 1): `serviceMeta`,
 * `serviceSqlApi`, the older result shape that some documentation still shows, and tool errors.
 * Tool inputs and results arrive as JSON text; {@link parseToolCall} reads them once and never
 * throws: a parse failure becomes an error state for the UI to show.
 *
 * @module
 */
import type { ToolCallWire } from './chat';
import { isRecord } from './shared';

/** Name of the metadata search tool. */
export const SERVICE_META_TOOL = 'serviceMeta';
/** Name of the SQL tool. */
export const SERVICE_SQL_API_TOOL = 'serviceSqlApi';

/** Default cap on rows in `serviceSqlApi` `result.data` (8). */
export const SQL_RESULT_ROW_LIMIT = 100;

/**
 * The service's official default chart style (behaviour 1): font, colour of labels and
 * titles, and the category palette, in order. For `vegaSpec` charts that bring no style of their own.
 */
export const DEFAULT_CHART_STYLE: {
  readonly font: string;
  readonly labelColor: string;
  readonly palette: readonly string[];
} = {
  font: 'Inter, sans-serif',
  labelColor: '#43436B',
  palette: [
    '#4E79A7',
    '#F28E2B',
    '#E15759',
    '#76B7B2',
    '#59A14F',
    '#EDC948',
    '#B07AA1',
    '#FF9DA7',
    '#9C755F',
    '#BAB0AC',
  ],
};

/**
 * The Vega-Lite `config` of {@link DEFAULT_CHART_STYLE}: font, label and title colours of axes,
 * legends, headers and titles, the category palette and the default mark colour. What the agent
 * puts in its specs and what the chat draws specs without a style of their own with.
 */
export function defaultChartConfig(): Record<string, unknown> {
  const { font, labelColor, palette } = DEFAULT_CHART_STYLE;
  return {
    font,
    axis: { labelColor, titleColor: labelColor, labelFont: font, titleFont: font },
    legend: { labelColor, titleColor: labelColor, labelFont: font, titleFont: font },
    header: { labelColor, titleColor: labelColor },
    title: { color: labelColor, font },
    range: { category: [...palette] },
    mark: { color: palette[0] },
  };
}

/** A member of a cube or view in a `serviceMeta` result. */
export interface MetaSearchMember {
  /** Fully qualified member name, `view.member`. */
  name: string;
  /** Human title. */
  title: string;
  /** What the member means, when the model says. */
  description?: string;
  /** Data type of the member. */
  type: 'string' | 'number' | 'time' | 'boolean' | (string & {});
  /** Aggregation of a measure (`sum`, `count`...). */
  aggType?: string;
}

/** A cube or view in a `serviceMeta` result. */
export interface MetaSearchCube {
  /** The view or cube name. */
  name: string;
  /** For example `view`. */
  type: string;
  /** Human title. */
  title: string;
  /** Its members that matched the search. */
  members: MetaSearchMember[];
}

/** Result of `serviceMeta` (2.8). */
export interface ServiceMetaResult {
  /** Views and members that matched. */
  cubes: MetaSearchCube[];
  /** The search, as asked. */
  searchQuery: string;
}

/** Input of `serviceSqlApi` (2.8); `vegaSpec` is Vega-Lite v5 JSON text when a chart was made. */
export interface ServiceSqlApiInput {
  /** The SQL the agent runs (`MEASURE(view.measure)` for measures). */
  sqlQuery: string;
  /** A title for the result, shown over the table. */
  queryTitle: string;
  /** What the query computes. */
  description: string;
  /** The part of the question this query answers. */
  userRequest: string;
  /** The agent's own reference for the query. */
  memoryId: string;
  /** A Vega-Lite v5 spec as JSON text, without data, when the agent charts the result. */
  vegaSpec?: string;
}

/** A result column of `serviceSqlApi`; `column_type` looks like `String`, `Int64`, `Double`, `Timestamp`, `Boolean`. */
export interface SqlColumn {
  /** Column name. */
  name: string;
  /** The column's type as the service names it, such as `Int64`, `Double` or `Timestamp` (behaviour 1). */
  column_type: string;
}

/**
 * Result of `serviceSqlApi` (2.8). `data` holds at most 100 rows by default, values as strings
 * (numbers too); `totalRows` tells whether more exist. `vegaSpec` holds no data: the data is `data`.
 */
export interface ServiceSqlApiResult {
  /** The SQL that ran. */
  sqlQuery: string;
  /** Title of the result. */
  queryTitle: string;
  /** What the query computes. */
  description: string;
  /** The part of the question it answers. */
  userRequest: string;
  /** The columns, in order. */
  schema: SqlColumn[];
  /** The rows (at most 100), each an array of values in `schema` order. */
  data: unknown[][];
  /** How many rows the query returned in all; more than `data` holds when capped. */
  totalRows: number;
  /** Id of this result. */
  uuid: string;
  /** The chart of the result: a Vega-Lite v5 spec as JSON text, without data (the data is `data`). */
  vegaSpec?: string;
}

/** The older result shape of some documentation examples: rows as objects, plus an annotation. */
export interface LegacyQueryResult {
  /** The rows, one object per row. */
  data: Record<string, unknown>[];
  /** Member annotations, as the data API gives them. */
  annotation?: unknown;
}

/** A tool result, sorted by shape. */
export type ToolResult =
  | {
      /** The result has the shape of a `serviceMeta` result: matching cubes and members. */
      kind: 'serviceMeta';
      /** The result, as the tool returned it. */
      value: ServiceMetaResult;
    }
  | {
      /** The result has the shape of a `serviceSqlApi` result: `schema` columns and `data` rows. */
      kind: 'serviceSqlApi';
      /** The result, as the tool returned it. */
      value: ServiceSqlApiResult;
    }
  | {
      /** The result is rows as objects, the older shape some documentation shows. */
      kind: 'legacyQuery';
      /** The result, as the tool returned it. */
      value: LegacyQueryResult;
    }
  | {
      /** No known shape; the chat's default tool view shows the value as JSON. */
      kind: 'other';
      /** The parsed result; `undefined` when the tool returned empty text. */
      value: unknown;
    };

/**
 * A tool call with its JSON parsed once. `running`: no result yet. `complete`: a result.
 * `error`: the tool reported an error (`source: 'tool'`) or its JSON could not be read
 * (`source: 'parse'`).
 */
export type ParsedToolCall =
  | {
      /** No result yet: the wire call's `result` is `null` or absent. */
      status: 'running';
      /** The tool's name, such as `serviceSqlApi`. */
      name: string;
      /** The input, parsed from its JSON text; `undefined` when the text is empty. */
      input: unknown;
    }
  | {
      /** The tool returned a result that is not an error. */
      status: 'complete';
      /** The tool's name, such as `serviceSqlApi`. */
      name: string;
      /** The input, parsed from its JSON text; `undefined` when the text is empty. */
      input: unknown;
      /** The parsed result, sorted by its shape. */
      result: ToolResult;
    }
  | {
      /** The tool failed or its JSON could not be read; `source` says which. */
      status: 'error';
      /** The tool's name, such as `serviceSqlApi`. */
      name: string;
      /** The parsed input; the raw text when the input itself is not JSON, so the UI can still show it. */
      input: unknown;
      /** The message to show: the tool's `error` text, or what made the JSON unreadable. */
      error: string;
      /** `tool`: the result was `{ error }` from the tool. `parse`: the input or result was not valid JSON. */
      source: 'tool' | 'parse';
    };

/** Parsed JSON text; `undefined` for an absent or empty text. Throws a `SyntaxError` for text that is not JSON. */
function parseJsonText(text: string | null | undefined): unknown {
  return text ? (JSON.parse(text) as unknown) : undefined;
}

function isSqlResult(value: Record<string, unknown>): value is Record<string, unknown> & ServiceSqlApiResult {
  return (
    Array.isArray(value.schema) &&
    value.schema.every((column) => isRecord(column) && typeof column.name === 'string') &&
    Array.isArray(value.data) &&
    value.data.every((row) => Array.isArray(row))
  );
}

function isMetaResult(value: Record<string, unknown>): value is Record<string, unknown> & ServiceMetaResult {
  return (
    Array.isArray(value.cubes) &&
    value.cubes.every(
      (cube) =>
        isRecord(cube) && typeof cube.name === 'string' && Array.isArray(cube.members) && cube.members.every(isRecord),
    )
  );
}

function isLegacyResult(value: Record<string, unknown>): value is Record<string, unknown> & LegacyQueryResult {
  return Array.isArray(value.data) && value.data.every((row) => isRecord(row));
}

/** Sorts a parsed tool result by its shape (the tool name is a hint, the shape decides). */
export function classifyToolResult(value: unknown): ToolResult {
  if (isRecord(value)) {
    if (isSqlResult(value)) return { kind: 'serviceSqlApi', value };
    if (isMetaResult(value)) return { kind: 'serviceMeta', value };
    if (isLegacyResult(value)) return { kind: 'legacyQuery', value };
  }
  return { kind: 'other', value };
}

/** Reads a wire tool call once: JSON input and result parsed, tool errors and bad JSON as `error`. */
export function parseToolCall(toolCall: ToolCallWire): ParsedToolCall {
  const { name } = toolCall;
  // Until the input parses, an error carries it as the raw text.
  let input: unknown = toolCall.input;
  let part = 'input';
  try {
    input = parseJsonText(toolCall.input);
    // `null` reads as absent: the call is not complete until a result arrives.
    if (toolCall.result == null) return { status: 'running', name, input };
    part = 'result';
    const result = parseJsonText(toolCall.result);
    if (isRecord(result) && typeof result.error === 'string') {
      return { status: 'error', name, input, error: result.error, source: 'tool' };
    }
    return { status: 'complete', name, input, result: classifyToolResult(result) };
  } catch (error) {
    // Only JSON.parse throws here, and only a SyntaxError.
    return {
      status: 'error',
      name,
      input,
      error: `Tool ${part} is not valid JSON: ${(error as SyntaxError).message}`,
      source: 'parse',
    };
  }
}

/** A table to render: column names with an optional type, and rows of cell values. */
export interface ResultTable {
  /** The columns, with their SQL type when known. */
  columns: {
    /** The column's name: `schema[].name`, or a key of the legacy row objects. */
    name: string;
    /** The column's SQL type (`column_type`); absent for legacy rows, which carry none. */
    type?: string;
  }[];
  /** The rows received, each an array in column order. */
  rows: unknown[][];
  /** Rows the query produced in all; more than `rows.length` when the result was capped. */
  totalRows: number;
}

/** The table of a SQL result in either shape (current `schema` + `data`, or the older row objects). */
export function toResultTable(result: ToolResult): ResultTable | undefined {
  if (result.kind === 'serviceSqlApi') {
    const { schema, data, totalRows } = result.value;
    return {
      columns: schema.map((column) => ({ name: column.name, type: column.column_type })),
      rows: data,
      totalRows: typeof totalRows === 'number' ? totalRows : data.length,
    };
  }
  if (result.kind === 'legacyQuery') {
    // Every key of every row, in the order of first appearance.
    const names = [...new Set(result.value.data.flatMap((row) => Object.keys(row)))];
    return {
      columns: names.map((name) => ({ name })),
      rows: result.value.data.map((row) => names.map((name) => row[name])),
      totalRows: result.value.data.length,
    };
  }
  return undefined;
}
