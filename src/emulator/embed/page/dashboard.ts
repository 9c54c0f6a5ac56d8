/**
 * A dashboard: its header (title, description, last refresh, time zone, refresh, export menu),
 * and its widgets laid out on the dashboard's grid: charts and tables from real queries, text,
 * filters and time grains. Also the detail view of one widget.
 *
 * Events it posts (6.2): `download` (CSV of a widget, only with `allowExport=true`, or of the whole
 * dashboard from the export menu; never the rows themselves) and `drilldown` (a click on a
 * measure: a bar, a point, a slice or a measure cell).
 *
 * @module
 */
import type { LoadQuery, LoadResponse } from '../../../core/protocol/data';
import type { DashboardWidget } from '../../../core/protocol/workbook';
import type { PageDashboard } from '../config';
import { format } from '../strings';
import { renderChart, resultTable, type ChartType } from './charts';
import type { PageContext, QueryState } from './context';
import { h, replaceChildren } from './dom';
import { renderMarkdown } from './markdown';

/** Options of {@link renderDashboard}. */
export interface DashboardViewOptions {
  dashboard: PageDashboard;
  /** In-embed path of the dashboard; widget details live below it at `/widgets/{id}`. */
  basePath: string;
  /** Shows this one widget in detail instead of the whole dashboard. */
  widgetId?: string;
}

const CHART_TYPES: readonly ChartType[] = ['bar', 'line', 'pie', 'kpi', 'table'];
const DEFAULT_GRAINS = ['day', 'week', 'month', 'quarter', 'year'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The title of a widget: `config.title`, else its id. */
export function widgetTitle(widget: DashboardWidget): string {
  const title = widget.config?.['title'];
  return typeof title === 'string' && title.trim() ? title : widget.id;
}

/** The `/v1/load` query of a chart widget, when its config has one. */
export function widgetQuery(widget: DashboardWidget): LoadQuery | undefined {
  const query = widget.config?.['query'];
  return widget.type === 'CHART' && isRecord(query) ? (query as LoadQuery) : undefined;
}

function chartType(widget: DashboardWidget): ChartType {
  const type = widget.config?.['chartType'];
  return CHART_TYPES.find((candidate) => candidate === type) ?? 'bar';
}

// ---------------------------------------------------------------------------------------------
// CSV

function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  // A cell a spreadsheet would run as a formula is written as text.
  if (/^[=+@\t\r]/.test(text) || /^-[^\d.]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Member names of a result's columns, in the query's order. */
function columnsOf(query: LoadQuery): string[] {
  return [
    ...(query.timeDimensions ?? [])
      .filter((dimension) => dimension.granularity)
      .map((dimension) => `${dimension.dimension}.${dimension.granularity}`),
    ...(query.dimensions ?? []),
    ...(query.measures ?? []),
  ];
}

function toCsv(query: LoadQuery, result: LoadResponse): string {
  const columns = columnsOf(query);
  const lines = [
    columns.map(csvCell).join(','),
    ...result.data.map((row) => columns.map((column) => csvCell(row[column])).join(',')),
  ];
  return `${lines.join('\r\n')}\r\n`;
}

function fileName(title: string): string {
  return `${
    title
      .replace(/[^\w-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase() || 'export'
  }.csv`;
}

/** Saves `text` as a file through the browser's download. */
function saveFile(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = h('a', { attrs: { href: url, download: name, hidden: true } });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// ---------------------------------------------------------------------------------------------
// Widgets

function filterWidget(page: PageContext, widget: DashboardWidget): HTMLElement {
  const member = String(widget.config?.['member'] ?? '');
  const options = Array.isArray(widget.config?.['options']) ? (widget.config['options'] as unknown[]).map(String) : [];
  const current = page.filters.get(member);
  const selected =
    current && (current.operator === undefined || current.operator === 'equals') && !Array.isArray(current.value)
      ? String(current.value)
      : '';
  const id = `svc-filter-${widget.id}`;
  const select = h(
    'select',
    {
      attrs: { id, 'data-focus-key': id, 'data-member': member },
      on: {
        change: (event) => {
          const value = (event.target as HTMLSelectElement).value;
          page.setFilter(member, value === '' ? undefined : { value });
        },
      },
    },
    h('option', { attrs: { value: '', selected: selected === '' } }, page.strings.all),
    ...options.map((option) => h('option', { attrs: { value: option, selected: selected === option } }, option)),
  );
  return h(
    'div',
    { attrs: { class: 'svc-field' } },
    h('label', { attrs: { for: id } }, format(page.strings.filterLabel, { title: widgetTitle(widget) })),
    select,
  );
}

function timeGrainWidget(page: PageContext, widget: DashboardWidget): HTMLElement {
  const member = String(widget.config?.['member'] ?? '');
  const options = Array.isArray(widget.config?.['options'])
    ? (widget.config['options'] as unknown[]).map(String)
    : DEFAULT_GRAINS;
  const id = `svc-grain-${widget.id}`;
  const current = page.timeGrains.get(member) ?? String(widget.config?.['default'] ?? '');
  const select = h(
    'select',
    {
      attrs: { id, 'data-focus-key': id },
      on: { change: (event) => page.setTimeGrain(member, (event.target as HTMLSelectElement).value) },
    },
    ...options.map((option) => h('option', { attrs: { value: option, selected: option === current } }, option)),
  );
  return h('div', { attrs: { class: 'svc-field' } }, h('label', { attrs: { for: id } }, widgetTitle(widget)), select);
}

interface WidgetParts {
  page: PageContext;
  widget: DashboardWidget;
  detail: boolean;
  basePath: string;
}

/** Fills a chart widget's body from its query state; called again when the query settles. */
function fillChart(
  parts: WidgetParts,
  section: HTMLElement,
  body: HTMLElement,
  download: HTMLButtonElement | undefined,
): void {
  const { page, widget, detail } = parts;
  const query = widgetQuery(widget);
  if (!query) {
    section.dataset['status'] = 'ready';
    replaceChildren(body, h('p', { attrs: { class: 'svc-muted' } }, page.strings.noData));
    return;
  }
  const state: QueryState = page.query(widget.id, query, () => {
    if (section.isConnected) fillChart(parts, section, body, download);
  });
  section.dataset['status'] = state.status;
  section.setAttribute('aria-busy', String(state.status === 'loading'));
  if (download) download.disabled = state.status !== 'ready';
  if (state.status === 'loading') {
    replaceChildren(body, h('p', { attrs: { role: 'status', class: 'svc-muted' } }, page.strings.loading));
    return;
  }
  if (state.status === 'error') {
    delete section.dataset['rows'];
    replaceChildren(
      body,
      h('p', { attrs: { role: 'alert', class: 'svc-error-text' } }, `${page.strings.failedToLoad}: ${state.message}`),
    );
    return;
  }
  section.dataset['rows'] = String(state.result.data.length);
  const title = widgetTitle(widget);
  const onDrill = (member: string, value: unknown): void => {
    page.messenger.post({
      surface: page.surface,
      type: 'service:event:drilldown',
      payload: value === undefined ? { member, widgetId: widget.id } : { member, value, widgetId: widget.id },
    });
  };
  const chart = renderChart({
    chartType: chartType(widget),
    title,
    query,
    result: state.result,
    format: page.format,
    onDrill,
  });
  const rows = h(
    'p',
    { attrs: { class: 'svc-muted svc-rows' } },
    format(page.strings.rows, { count: page.format.number(state.result.data.length) }),
  );
  replaceChildren(
    body,
    chart,
    detail && chart.tagName.toLowerCase() !== 'table'
      ? resultTable({ title, query, result: state.result, format: page.format, onDrill })
      : null,
    detail ? rows : null,
  );
}

function widgetSection(parts: WidgetParts): HTMLElement {
  const { page, widget, detail, basePath } = parts;
  const titleId = `svc-widget-title-${widget.id}`;
  const section = h('section', {
    attrs: {
      class: `svc-widget svc-widget-${widget.type.toLowerCase()}`,
      'data-widget-id': widget.id,
      'data-widget-type': widget.type,
      'data-title': widgetTitle(widget),
      'aria-labelledby': titleId,
    },
  });
  if (!detail) {
    const { x, y, w, h: height } = widget.position;
    section.style.setProperty('--svc-x', String(x + 1));
    section.style.setProperty('--svc-y', String(y + 1));
    section.style.setProperty('--svc-w', String(w));
    section.style.setProperty('--svc-h', String(height));
  }
  const title = widgetTitle(widget);
  const body = h('div', { attrs: { class: 'svc-widget-body' } });

  if (widget.type === 'TEXT') {
    section.dataset['status'] = 'ready';
    section.removeAttribute('aria-labelledby');
    body.append(renderMarkdown(String(widget.config?.['markdown'] ?? widget.config?.['text'] ?? ''), 'svc-text'));
    section.append(body);
    return section;
  }
  if (widget.type === 'FILTER' || widget.type === 'TIME_GRAIN') {
    section.dataset['status'] = 'ready';
    // The control's own label names it; a named section around it would say it twice.
    section.removeAttribute('aria-labelledby');
    body.append(widget.type === 'FILTER' ? filterWidget(page, widget) : timeGrainWidget(page, widget));
    section.append(body);
    return section;
  }

  const heading = h(detail ? 'h1' : 'h2', { attrs: { id: titleId, class: 'svc-widget-title' } }, title);
  const actions = h('div', { attrs: { class: 'svc-widget-actions' } });
  let download: HTMLButtonElement | undefined;
  if (widget.type === 'CHART') {
    if (!detail) {
      actions.append(
        h(
          'button',
          {
            attrs: {
              type: 'button',
              class: 'svc-link',
              'aria-label': `${page.strings.details}: ${title}`,
              'data-focus-key': `details-${widget.id}`,
            },
            on: { click: () => page.navigate(`${basePath}/widgets/${encodeURIComponent(widget.id)}`) },
          },
          page.strings.details,
        ),
      );
    }
    // The CSV action appears on widgets only with `allowExport=true` (6.2 download).
    if (page.allowExport && widgetQuery(widget)) {
      download = h(
        'button',
        {
          attrs: {
            type: 'button',
            class: 'svc-button',
            'aria-label': `${page.strings.downloadCsv}: ${title}`,
            'data-action': 'download-csv',
            'data-focus-key': `csv-${widget.id}`,
          },
          on: {
            click: () => {
              const query = widgetQuery(widget);
              const state = query ? page.query(widget.id, query, () => {}) : undefined;
              if (!query || state?.status !== 'ready') return;
              saveFile(fileName(title), toCsv(query, state.result));
              page.messenger.post({
                surface: page.surface,
                type: 'service:event:download',
                payload: {
                  format: 'csv',
                  target: 'widget',
                  widgetId: widget.id,
                  title,
                  rowCount: state.result.data.length,
                },
              });
            },
          },
        },
        page.strings.downloadCsv,
      );
      actions.append(download);
    }
  }
  section.append(h('header', { attrs: { class: 'svc-widget-header' } }, heading, actions), body);
  if (widget.type === 'CHART') fillChart(parts, section, body, download);
  else {
    section.dataset['status'] = 'ready';
    body.append(h('p', { attrs: { class: 'svc-muted' } }, page.strings.unsupportedWidget));
  }
  return section;
}

// ---------------------------------------------------------------------------------------------
// The dashboard

function exportMenu(page: PageContext, dashboard: PageDashboard): HTMLElement | null {
  // Its only item exports data, which the URL allows with `allowExport=true`; without it the menu
  // would be empty, so it is not shown.
  if (!page.switches.exportMenu || !page.allowExport) return null;
  const exportAll = (): void => {
    const parts: string[] = [];
    let rowCount = 0;
    for (const widget of dashboard.widgets) {
      const query = widgetQuery(widget);
      const state = query ? page.query(widget.id, query, () => {}) : undefined;
      if (!query || state?.status !== 'ready') continue;
      parts.push(`${csvCell(widgetTitle(widget))}\r\n${toCsv(query, state.result)}`);
      rowCount += state.result.data.length;
    }
    saveFile(fileName(dashboard.title), parts.join('\r\n'));
    page.messenger.post({
      surface: page.surface,
      type: 'service:event:download',
      payload: { format: 'csv', target: 'dashboard', title: dashboard.title, rowCount },
    });
  };
  return h(
    'details',
    { attrs: { class: 'svc-menu', 'data-part': 'export-menu' } },
    h('summary', { attrs: { class: 'svc-button' } }, page.strings.exportMenu),
    h(
      'div',
      { attrs: { class: 'svc-menu-items', role: 'group', 'aria-label': page.strings.exportMenu } },
      h(
        'button',
        {
          attrs: { type: 'button', class: 'svc-button', 'data-action': 'export-dashboard-csv' },
          on: { click: exportAll },
        },
        page.strings.exportDashboardCsv,
      ),
    ),
  );
}

function header(page: PageContext, dashboard: PageDashboard, detail: boolean): HTMLElement {
  const refreshed =
    page.refreshedAt === null
      ? page.strings.neverRefreshed
      : format(page.strings.lastRefreshed, { time: page.format.moment(page.refreshedAt) });
  const showTitle = page.switches.header && page.switches.title && !detail;
  const heading = detail
    ? null
    : h(
        'h1',
        { attrs: { class: showTitle ? 'svc-title' : 'svc-visually-hidden', 'data-part': 'title' } },
        dashboard.title,
      );
  if (!page.switches.header) return h('div', { attrs: { class: 'svc-visually-hidden' } }, heading);
  return h(
    'header',
    { attrs: { class: 'svc-dashboard-header', 'data-part': 'header' } },
    h(
      'div',
      { attrs: { class: 'svc-heading' } },
      heading,
      dashboard.description && !detail ? h('p', { attrs: { class: 'svc-muted' } }, dashboard.description) : null,
    ),
    h(
      'div',
      { attrs: { class: 'svc-toolbar' } },
      h(
        'p',
        { attrs: { class: 'svc-muted', 'data-part': 'refreshed', 'data-refresh-count': page.refreshCount } },
        refreshed,
      ),
      h(
        'p',
        { attrs: { class: 'svc-muted', 'data-part': 'timezone' } },
        format(page.strings.timeZone, { timezone: page.timezone }),
      ),
      h(
        'button',
        {
          attrs: { type: 'button', class: 'svc-button', 'data-action': 'refresh', 'data-focus-key': 'refresh' },
          on: { click: () => page.refresh() },
        },
        page.strings.refresh,
      ),
      exportMenu(page, dashboard),
    ),
  );
}

/** Renders a dashboard, or the detail of one of its widgets. */
export function renderDashboard(page: PageContext, options: DashboardViewOptions): HTMLElement {
  const { dashboard, basePath, widgetId } = options;
  const root = h('div', { attrs: { class: 'svc-dashboard', 'data-public-id': dashboard.publicId } });
  if (widgetId !== undefined) {
    const widget = dashboard.widgets.find((candidate) => candidate.id === widgetId);
    root.append(
      h(
        'nav',
        { attrs: { class: 'svc-breadcrumbs', 'aria-label': dashboard.title } },
        h(
          'button',
          {
            attrs: { type: 'button', class: 'svc-link', 'data-focus-key': 'back' },
            on: { click: () => page.navigate(basePath) },
          },
          `← ${page.strings.backToDashboard}`,
        ),
      ),
      header(page, dashboard, true),
      widget ? widgetSection({ page, widget, detail: true, basePath }) : h('p', {}, page.strings.noData),
    );
    return root;
  }
  root.append(header(page, dashboard, false));
  if (dashboard.kind === 'APP') {
    root.append(h('p', { attrs: { class: 'svc-notice' } }, page.strings.appDashboardNotice));
    return root;
  }
  root.append(
    h(
      'div',
      { attrs: { class: 'svc-grid' } },
      ...dashboard.widgets.map((widget) => widgetSection({ page, widget, detail: false, basePath })),
    ),
  );
  return root;
}

/**
 * Starts every chart query of `dashboard` and resolves when all have settled, whichever view is
 * on screen: what `dashboard-loaded` waits for.
 */
export function loadAll(page: PageContext, dashboard: PageDashboard): Promise<number> {
  const pending = dashboard.widgets.map(
    (widget) =>
      new Promise<void>((resolve) => {
        const query = widgetQuery(widget);
        if (!query) return resolve();
        const state = page.query(widget.id, query, resolve);
        if (state.status !== 'loading') resolve();
      }),
  );
  return Promise.all(pending).then(() => dashboard.widgets.length);
}
