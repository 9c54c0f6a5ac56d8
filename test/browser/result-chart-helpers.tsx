/** Mounting charts of the recorded fixtures in the browser tests, one at a time. */
import type { ReactElement } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import { expect, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { toResultTable, type ResultTable, type ServiceSqlApiResult } from '../../src/core/protocol/tools';
import { sqlToolCall, type SqlFixtureName } from '../fixtures/sql-tool-calls';

let root: Root | undefined;
let host: HTMLElement | undefined;

/** The element the current chart is mounted in. */
export function chartHost(): HTMLElement {
  if (!host) throw new Error('no chart is mounted');
  return host;
}

/** Unmounts the current chart, if any (call it in `afterEach`). */
export function unmountChart(): void {
  root?.unmount();
  host?.remove();
  root = undefined;
  host = undefined;
}

/** A recorded complete `serviceSqlApi` result and its table. */
export function fixture(name: SqlFixtureName): { result: ServiceSqlApiResult; table: ResultTable } {
  const call = sqlToolCall(name);
  if (call.status !== 'complete' || call.result.kind !== 'serviceSqlApi')
    throw new Error(`${name} is not a complete SQL result`);
  return { result: call.result.value, table: toResultTable(call.result)! };
}

/** Mounts `element` synchronously in a host `width` px wide (640 by default; effects run, vega is still loading) and returns its chart part. */
export function mountChart(element: ReactElement, theme?: 'light' | 'dark', width = 640): HTMLElement {
  unmountChart();
  host = document.createElement('div');
  host.style.width = `${width}px`;
  if (theme) host.dataset.serviceTheme = theme;
  document.body.append(host);
  const current = createRoot(host);
  root = current;
  flushSync(() => current.render(element));
  return host.querySelector<HTMLElement>('[data-part="chart"]')!;
}

/** Waits until the chart is drawn (or, with `'error'`, until it shows its error card). */
export async function settled(chart: HTMLElement, state: 'ready' | 'error' = 'ready'): Promise<void> {
  await vi.waitFor(() => expect(chart.dataset.state).toBe(state), { timeout: 20_000 });
}

/** vega-tooltip's tooltip, when it is shown (it lives on `document.body`, outside the chart). */
export function tooltipShown(): HTMLElement | null {
  return document.querySelector<HTMLElement>('#vg-tooltip-element.visible');
}

/**
 * Moves the pointer onto the chart's first bar until its tooltip shows, and returns the tooltip.
 * On a busy machine the chart can still settle its size after it is drawn, and a bar moved from
 * under the pointer gets no hover: each try moves off the chart and back onto the bar.
 */
export async function hoverBarUntilTooltip(chart: HTMLElement): Promise<HTMLElement> {
  return vi.waitFor(
    async () => {
      if (!tooltipShown()) {
        await userEvent.unhover(chart);
        await userEvent.hover(chart.querySelector<SVGElement>('g.mark-rect path')!);
      }
      const tooltip = tooltipShown();
      expect(tooltip).not.toBeNull();
      return tooltip!;
    },
    { timeout: 10_000, interval: 250 },
  );
}
