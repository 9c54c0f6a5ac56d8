/**
 * STAND-IN, replaced at merge by the real component: the `serviceSqlApi` result view (SQL, result
 * table, chart) is built by another engineer as `SqlToolView`. This minimal version only lets the
 * chat render a SQL tool call (title, SQL, a plain table) until then. Do not polish or extend it.
 *
 * @module
 */
import { createElement as h, type ReactNode } from 'react';
import { toResultTable } from '../../core/protocol/tools';
import type { ChatToolCall } from '../../core/thread-store';

/** Strings of the SQL tool view (stand-in). */
export interface SqlToolLabels {
  sql: string;
}

/** Props of {@link SqlToolView} (stand-in). */
export interface SqlToolViewProps {
  call: ChatToolCall;
  labels?: Partial<SqlToolLabels>;
  defaultView?: 'table' | 'chart';
  className?: string;
}

/** Stand-in of the `serviceSqlApi` view: title, SQL, a plain table. */
export function SqlToolView({ call, labels, className }: SqlToolViewProps): ReactNode {
  const input = (call.input ?? {}) as { queryTitle?: string; sqlQuery?: string };
  const table = call.status === 'complete' ? toResultTable(call.result) : undefined;
  return h(
    'div',
    { className },
    h('p', null, input.queryTitle),
    h('pre', { 'data-part': 'sql', 'aria-label': labels?.sql ?? 'SQL' }, input.sqlQuery),
    table &&
      h(
        'table',
        { 'data-part': 'result-table' },
        h('thead', null, h('tr', null, ...table.columns.map((column) => h('th', { key: column.name, scope: 'col' }, column.name)))),
        h('tbody', null, ...table.rows.map((row, index) => h('tr', { key: index }, ...row.map((cell, column) => h('td', { key: column }, String(cell ?? '')))))),
      ),
  );
}
