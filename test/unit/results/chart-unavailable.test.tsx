import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { SqlToolView } from '../../../src/components/results';
import { sqlToolCall } from '../../fixtures/sql-tool-calls';

// The optional peer is not installed: its import fails as a bundler's does.
vi.mock('vega-embed', () => {
  throw new Error('Cannot find package "vega-embed"');
});

afterEach(cleanup);

it('says the chart libraries are missing, in the chart part only, and the table still works', async () => {
  const { container } = render(<SqlToolView call={sqlToolCall('ordersByStatus')} />);
  const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
  // (vitest wraps the factory's error in its own message)
  expect(alert.textContent).toMatch(
    /The chart libraries could not be loaded \(vega-embed and vega-interpreter could not be loaded: /,
  );
  expect(container.querySelector('[data-part="chart"]')!.getAttribute('data-state')).toBe('error');
  screen.getByRole('button', { name: 'Table' }).click();
  expect(await screen.findByRole('region', { name: 'Result of Orders by status' })).toBeTruthy();
});
