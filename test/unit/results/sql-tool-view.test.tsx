import { QueryClient, QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useContext, type ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SqlToolView, ResultTable } from '../../../src/components/results';
import { loadAllQueryKey } from '../../../src/components/results/use-load-all';
import { ServiceProvider, type DataSettings } from '../../../src/react';
import { useServiceQueryClient } from '../../../src/react/use-service-query-client';
import { signDeploymentToken, WORLD } from '../../../src/emulator';
import { editedSqlToolCall, sqlToolCall, sqlWire, toChatToolCall } from '../../fixtures/sql-tool-calls';
import { useEmulator } from '../../helpers/emulator';

afterEach(cleanup);

// jsdom's globals give this file another realm's `Uint8Array` than Node's `TextEncoder` returns,
// and jose (the emulator's JWTs) checks keys with `instanceof`: encode into this realm's arrays.
const NodeTextEncoder = globalThis.TextEncoder;
globalThis.TextEncoder = class extends NodeTextEncoder {
  override encode(input?: string): Uint8Array<ArrayBuffer> {
    return new Uint8Array(super.encode(input));
  }
};

function part(container: HTMLElement, name: string): HTMLElement {
  const element = container.querySelector<HTMLElement>(`[data-part="${name}"]`);
  if (!element) throw new Error(`no data-part="${name}"`);
  return element;
}

describe('SqlToolView', () => {
  it('shows a running call: title, description, SQL and a running status, no table', () => {
    const { container } = render(<SqlToolView call={sqlToolCall('revenueByMonth', 'running')} />);
    expect(part(container, 'sql-tool').dataset.state).toBe('running');
    expect(screen.getByText('Revenue by month')).toBeTruthy();
    expect(screen.getByText('Total revenue and number of orders per month, 2025.')).toBeTruthy();
    expect(part(container, 'sql').textContent).toContain("DATE_TRUNC('month', created_at)");
    expect(screen.getByRole('status').textContent).toBe('Running query…');
    expect(container.querySelector('[data-part="result-table"]')).toBeNull();
  });

  it('opens on the chart when the call it showed running completes', () => {
    const { container, rerender } = render(<SqlToolView call={sqlToolCall('ordersByStatus', 'running')} />);
    rerender(<SqlToolView call={sqlToolCall('ordersByStatus')} />);
    expect(part(container, 'sql-tool').dataset.state).toBe('complete');
    expect(part(container, 'chart')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Chart' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('shows a complete result as a table typed by column_type', () => {
    const { container } = render(<SqlToolView call={sqlToolCall('revenueByMonth')} defaultView="table" />);
    const table = part(container, 'result-table');
    const headers = within(table).getAllByRole('columnheader');
    // Headers read as titles; the raw name and type stay in the tooltip.
    expect(headers.map((header) => [header.textContent, header.dataset.kind, header.title])).toEqual([
      ['Month', 'temporal', 'month (Timestamp)'],
      ['Revenue', 'number', 'revenue (Double)'],
      ['Orders', 'number', 'orders (Int64)'],
    ]);
    const rows = within(table).getAllByRole('row').slice(1);
    const result = JSON.parse(sqlWire('revenueByMonth').result!) as { data: string[][]; totalRows: number };
    expect(rows).toHaveLength(result.data.length);
    const first = within(rows[0]!).getAllByRole('cell');
    // A column of first days of months reads as months, in the locale (no ISO dates); revenue is
    // currency (the chart formats it with `$`), two decimals on every row; counts have none.
    expect(first[0]!.textContent).toBe('Jan 2025');
    expect(first[1]!.dataset.kind).toBe('number');
    expect(first[1]!.textContent!.replace(/[^\d.]/g, '')).toBe(String(Number(result.data[0]![1])));
    expect(first[1]!.textContent).toMatch(/^\$[\d,]+\.\d\d$/);
    for (const row of rows) expect(within(row).getAllByRole('cell')[1]!.textContent).toMatch(/^\$[\d,]+\.\d\d$/);
    expect(first[2]!.textContent).toBe(Number(result.data[0]![2]).toLocaleString('en-US'));
    expect(within(table).getByText(`${result.totalRows} rows`)).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says how many rows are shown of a capped result, with no "Load all" without data settings', () => {
    render(<SqlToolView call={sqlToolCall('topCustomers')} defaultView="table" />);
    expect(screen.getByText('Showing 100 of 250 rows')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Load all/ })).toBeNull();
  });

  it('renders the older row-object result shape as a table', () => {
    const call = toChatToolCall({
      name: 'serviceSqlApi',
      input: JSON.stringify({ queryTitle: 'Legacy', sqlQuery: 'SELECT 1' }),
      result: JSON.stringify({
        data: [
          { region: 'EMEA', revenue: '12' },
          { region: 'NA', revenue: '30', extra: 'x' },
        ],
        annotation: {},
      }),
    });
    const { container } = render(<SqlToolView call={call} />);
    const table = part(container, 'result-table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Region', 'Revenue', 'Extra']);
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(screen.queryByRole('group', { name: 'Show the result as' })).toBeNull();
  });

  it('shows an error card for a result that is not a table, keeping title and SQL', () => {
    const call = toChatToolCall({
      name: 'serviceSqlApi',
      input: JSON.stringify({ queryTitle: 'Odd', sqlQuery: 'SELECT 1' }),
      result: '{"something":"else"}',
    });
    const { container } = render(<SqlToolView call={call} />);
    expect(screen.getByRole('alert').textContent).toContain('The tool returned a result that is not a table.');
    expect(screen.getByText('Odd')).toBeTruthy();
    expect(part(container, 'sql')).toBeTruthy();
  });

  it('switches between chart and table', () => {
    const { container } = render(<SqlToolView call={sqlToolCall('ordersByStatus')} />);
    const group = screen.getByRole('group', { name: 'Show the result as' });
    const chart = within(group).getByRole('button', { name: 'Chart' });
    const table = within(group).getByRole('button', { name: 'Table' });
    // A call with a vegaSpec opens on its chart.
    expect(chart.getAttribute('aria-pressed')).toBe('true');
    expect(part(container, 'chart')).toBeTruthy();
    expect(container.querySelector('[data-part="result-table"]')).toBeNull();
    fireEvent.click(table);
    expect(table.getAttribute('aria-pressed')).toBe('true');
    expect(container.querySelector('[data-part="chart"]')).toBeNull();
    expect(part(container, 'result-table')).toBeTruthy();
    fireEvent.click(chart);
    expect(part(container, 'chart')).toBeTruthy();
  });

  it('shows a chart error card for data that does not match its schema, and the table still works', () => {
    const call = editedSqlToolCall('ordersByStatus', ({ result }) => {
      (result.data as string[][])[1]![1] = 'many';
    });
    const { container } = render(<SqlToolView call={call} />);
    const chart = part(container, 'chart');
    expect(chart.dataset.state).toBe('error');
    expect(within(chart).getByRole('alert').textContent).toMatch(/Row 2, column "orders": "many" is not a number/);
    fireEvent.click(screen.getByRole('button', { name: 'Table' }));
    expect(within(part(container, 'result-table')).getByText('many')).toBeTruthy();
  });

  it('shows a chart error card for a spec that is not JSON', () => {
    const call = editedSqlToolCall('ordersByStatus', ({ input, result }) => {
      input.vegaSpec = '{"mark": "bar"';
      result.vegaSpec = '{"mark": "bar"';
    });
    const { container } = render(<SqlToolView call={call} />);
    expect(within(part(container, 'chart')).getByRole('alert').textContent).toMatch(/not valid JSON/);
  });

  it('takes every UI string from labels', () => {
    render(
      <SqlToolView
        call={sqlToolCall('topCustomers')}
        defaultView="table"
        labels={{
          showingRows: (shown, total) => `${shown} / ${total}`,
          downloadCsv: 'CSV herunterladen',
          sql: 'Abfrage',
        }}
      />,
    );
    expect(screen.getByText('100 / 250')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'CSV herunterladen' })).toBeTruthy();
    expect(screen.getByText('Abfrage')).toBeTruthy();
  });

  it('copies the SQL', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<SqlToolView call={sqlToolCall('revenueByRegion')} />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy SQL' }));
    const input = JSON.parse(sqlWire('revenueByRegion').input!) as { sqlQuery: string };
    expect(writeText).toHaveBeenCalledWith(input.sqlQuery);
    await screen.findByRole('button', { name: 'Copied' });
  });

  it('downloads the rows as CSV named after the query', async () => {
    render(<SqlToolView call={sqlToolCall('revenueByRegion')} />);
    const { name, text } = await downloadCsv();
    expect(name).toBe('revenue-by-region.csv');
    const result = JSON.parse(sqlWire('revenueByRegion').result!) as { data: string[][] };
    expect(text.replace(/^\uFEFF/, '')).toBe(
      ['region,revenue,orders', ...result.data.map((row) => row.join(','))].join('\r\n') + '\r\n',
    );
  });
});

/** Clicks "Download CSV" and reads the file the page hands to the browser. */
async function downloadCsv(): Promise<{ name: string; text: string }> {
  const blobs: Blob[] = [];
  const names: string[] = [];
  URL.createObjectURL = (blob: Blob | MediaSource) => {
    blobs.push(blob as Blob);
    return 'blob:test';
  };
  URL.revokeObjectURL = () => undefined;
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download);
  });
  fireEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
  click.mockRestore();
  const text = await new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.readAsText(blobs[0]!);
  });
  return { name: names[0]!, text };
}

describe('ResultTable', () => {
  it('renders at most maxRows rows and says so', () => {
    const rows = Array.from({ length: 30 }, (_, index) => [String(index)]);
    const { container } = render(
      <ResultTable table={{ columns: [{ name: 'n', type: 'Int64' }], rows, totalRows: 30 }} maxRows={10} />,
    );
    expect(within(part(container, 'result-table')).getAllByRole('row')).toHaveLength(11);
    expect(screen.getByText('Showing 10 of 30 rows')).toBeTruthy();
  });

  it('keeps every digit of 64-bit integers and marks NULL', () => {
    render(
      <ResultTable
        table={{ columns: [{ name: 'n', type: 'Int64' }], rows: [['9007199254740993'], [null]], totalRows: 2 }}
        locale="en-US"
      />,
    );
    expect(screen.getByText('9,007,199,254,740,993')).toBeTruthy();
    expect(screen.getByText('null').className).toBe('service-result-table__null');
  });

  it('says when there are no rows', () => {
    render(<ResultTable table={{ columns: [{ name: 'n' }], rows: [], totalRows: 0 }} />);
    expect(screen.getByText('The query returned no rows.')).toBeTruthy();
  });
});

describe('useServiceQueryClient', () => {
  function Probe({ onClient }: { onClient: (client: unknown) => void }): ReactNode {
    onClient(useServiceQueryClient());
    return null;
  }

  it('prefers the provider prop, then an enclosing QueryClientProvider, then one of its own per provider', () => {
    const prop = new QueryClient();
    const enclosing = new QueryClient();
    const seen: unknown[] = [];
    const record = (client: unknown) => seen.push(client);
    render(
      <QueryClientProvider client={enclosing}>
        <ServiceProvider queryClient={prop}>
          <Probe onClient={record} />
        </ServiceProvider>
        <ServiceProvider>
          <Probe onClient={record} />
        </ServiceProvider>
      </QueryClientProvider>,
    );
    expect(seen.slice(0, 2)).toEqual([prop, enclosing]);
    seen.length = 0;
    const tree = (url: string) => (
      <>
        <ServiceProvider data={{ url, token: 't' }}>
          <Probe onClient={record} />
          <Probe onClient={record} />
        </ServiceProvider>
        <ServiceProvider>
          <Probe onClient={record} />
        </ServiceProvider>
      </>
    );
    const { rerender } = render(tree('/a'));
    rerender(tree('/b'));
    const [a, b, c, d, e, f] = seen;
    expect(a).toBeInstanceOf(QueryClient);
    // One client per provider, kept across renders with new props; another provider has its own.
    expect([b, d, e]).toEqual([a, a, a]);
    expect(c).toBeInstanceOf(QueryClient);
    expect(c).not.toBe(a);
    expect(f).toBe(c);
  });

  it('never wraps the tree in a QueryClientProvider', () => {
    let inside: unknown = 'unset';
    function Reader(): ReactNode {
      inside = useContext(QueryClientContext);
      return null;
    }
    render(
      <ServiceProvider data={{ url: '/a', token: 't' }}>
        <SqlToolView call={sqlToolCall('topCustomers')} defaultView="table" />
        <Reader />
      </ServiceProvider>,
    );
    expect(inside).toBeUndefined();
  });
});

describe('Load all, against the emulator', () => {
  let data: DataSettings;

  // Small data lines, so that rows arrive in many chunks and progress can be seen.
  const emulator = useEmulator({ port: 0, chatPace: 'instant', cubesqlRowsPerLine: 20 });

  beforeAll(async () => {
    const token = await signDeploymentToken(WORLD, { claims: { externalId: 'fixtures@acme.test' } });
    data = { url: emulator.dataUrl, token };
  }, 30_000);

  it('loads every row through the data API, with progress, into the table and the CSV', async () => {
    const client = new QueryClient();
    const fetches: string[] = [];
    const counting: typeof fetch = (input, init) => {
      fetches.push(String(input instanceof Request ? input.url : input));
      return fetch(input, init);
    };
    const { container } = render(
      <ServiceProvider data={{ ...data, fetch: counting }} queryClient={client}>
        <SqlToolView call={sqlToolCall('topCustomers')} defaultView="table" />
      </ServiceProvider>,
    );
    const button = screen.getByRole('button', { name: 'Load all 250 rows' });
    expect(fetches).toEqual([]);
    fireEvent.click(button);
    // Progress: the status names the rows received so far while loading.
    await waitFor(() => expect(screen.getByRole('status').textContent).toMatch(/^Loading rows… \d+ received$/));
    await waitFor(() => expect(part(container, 'row-count').textContent).toBe('250 rows'), { timeout: 15_000 });
    expect(fetches).toEqual([`${emulator.dataUrl}/v1/cubesql`]);
    // Plain selectors for 250 rows: role queries over a big jsdom table take seconds.
    const rows = [...part(container, 'result-table').querySelectorAll<HTMLElement>('tbody tr')];
    expect(rows).toHaveLength(250);
    // The first rows are the tool's own rows: the same query, the same order.
    const result = JSON.parse(sqlWire('topCustomers').result!) as { data: string[][] };
    expect(rows[0]!.querySelectorAll('td')[1]!.textContent).toBe(result.data[0]![1]);
    expect(screen.queryByRole('button', { name: /Load all/ })).toBeNull();
    const csv = await downloadCsv();
    expect(csv.text.split('\r\n')).toHaveLength(1 + 250 + 1);
    // Cached in the provider's client under the data URL and the SQL.
    const sql = (JSON.parse(sqlWire('topCustomers').input!) as { sqlQuery: string }).sqlQuery;
    expect((client.getQueryData(loadAllQueryKey(emulator.dataUrl, sql)) as { rows: unknown[] }).rows).toHaveLength(250);
  }, 20_000);

  it('cancels a load in progress: the request is aborted and the button comes back', async () => {
    const signals: AbortSignal[] = [];
    // The emulator answers "Continue wait" 50 times: the load stays in progress until cancelled.
    const slow: typeof fetch = (input, init) => {
      if (init?.signal) signals.push(init.signal);
      return fetch(input, {
        ...init,
        headers: { ...(init?.headers as Record<string, string>), 'x-emulator-slow': '50' },
      });
    };
    render(
      <ServiceProvider data={{ ...data, fetch: slow }} queryClient={new QueryClient()}>
        <SqlToolView call={sqlToolCall('topCustomers')} defaultView="table" />
      </ServiceProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Load all 250 rows' }));
    await screen.findByText('Loading rows… 0 received');
    await waitFor(() => expect(signals.length).toBeGreaterThan(0));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await screen.findByRole('button', { name: 'Load all 250 rows' });
    expect(signals.at(-1)!.aborted).toBe(true);
    expect(screen.getByText('Showing 100 of 250 rows')).toBeTruthy();
  }, 20_000);

  it('shows a refused token as an error with retry, and retries', async () => {
    let token = 'not-a-jwt';
    const { container } = render(
      <ServiceProvider data={{ url: emulator.dataUrl, token: () => token }} queryClient={new QueryClient()}>
        <SqlToolView call={sqlToolCall('topCustomers')} defaultView="table" />
      </ServiceProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Load all 250 rows' }));
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(alert.textContent).toMatch(/^Could not load all rows: .*403/);
    token = data.token as string;
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    });
    await waitFor(() => expect(part(container, 'result-table').querySelectorAll('tbody tr')).toHaveLength(250), {
      timeout: 15_000,
    });
  }, 30_000);
});

describe('ResultTable counts', () => {
  it('says "1 row" and "2 rows" by the locale plural rules', () => {
    const { rerender } = render(
      <ResultTable table={{ columns: [{ name: 'n', type: 'Int64' }], rows: [['1']], totalRows: 1 }} locale="en-US" />,
    );
    expect(screen.getByText('1 row')).toBeTruthy();
    rerender(
      <ResultTable
        table={{ columns: [{ name: 'n', type: 'Int64' }], rows: [['1'], ['2']], totalRows: 2 }}
        locale="en-US"
      />,
    );
    expect(screen.getByText('2 rows')).toBeTruthy();
  });
});

describe('the SQL block', () => {
  it('highlights complete SQL with classes once opened, and leaves running SQL plain', async () => {
    const { container, rerender } = render(<SqlToolView call={sqlToolCall('revenueByMonth', 'running')} />);
    const details = part(container, 'sql') as HTMLDetailsElement;
    details.open = true;
    fireEvent(details, new Event('toggle'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Running: the SQL may still be written, it stays plain text.
    expect(details.querySelector('code')!.dataset.state).toBe('plain');
    rerender(<SqlToolView call={sqlToolCall('revenueByMonth')} />);
    const code = part(container, 'sql').querySelector('code')!;
    await waitFor(() => expect(code.dataset.state).toBe('highlighted'));
    expect([...code.querySelectorAll('.service-sql-keyword')].map((span) => span.textContent)).toEqual(
      expect.arrayContaining(['SELECT', 'AS', 'FROM']),
    );
    expect(code.querySelector('.service-sql-function')?.textContent).toBe('DATE_TRUNC');
    // The text is the SQL, unchanged; no element carries a style attribute.
    expect(code.textContent).toBe(JSON.parse(sqlWire('revenueByMonth').input!).sqlQuery);
    expect(code.querySelector('[style]')).toBeNull();
  });
});
