import type { Meta, StoryObj } from '@storybook/react-vite';
import { useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { expect, userEvent, waitFor } from 'storybook/test';
import { EmbeddedDashboard, type ColorScheme, type EmbedHandle } from '../src';
import { EventLog, useEventLog } from './embed-stories';

/**
 * A partner portal: its own controls drive the embedded dashboard through the declarative props
 * (scheme, theme, locale, time zone, filters: actions, never a reload) and the ref handle
 * (navigate, refresh), and a live log shows every event the dashboard sends.
 */
const meta = {
  title: 'Embeds/Partner portal',
  parameters: { layout: 'fullscreen' },
} satisfies Meta;

export default meta;
type Story = StoryObj<typeof meta>;

const THEMES = {
  default: undefined,
  violet: { primaryColor: '#6d28d9', borderRadius: 12 },
  forest: { primaryColor: '#166534', font: 'Georgia, serif', borderRadius: 2 },
} as const;

const STATUSES = ['', 'completed', 'processing', 'shipped', 'cancelled', 'returned'] as const;

const bar: CSSProperties = {
  display: 'flex',
  flexWrap: 'wrap',
  gap: 'var(--service-space-3)',
  alignItems: 'end',
  marginBottom: 'var(--service-space-4)',
};
const field: CSSProperties = {
  display: 'flex',
  flexDirection: 'column',
  gap: 'var(--service-space-1)',
  fontSize: 'var(--service-font-size-sm)',
};
const button: CSSProperties = {
  font: 'inherit',
  padding: 'var(--service-space-2) var(--service-space-3)',
  borderRadius: 'var(--service-radius-md)',
  border: '1px solid var(--service-color-border)',
  background: 'var(--service-color-surface-raised)',
  color: 'var(--service-color-text)',
};

function Select<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: readonly T[];
  onChange: (value: T) => void;
}): ReactNode {
  return (
    <label style={field}>
      {label}
      <select value={value} onChange={(event) => onChange(event.target.value as T)} style={button}>
        {options.map((option) => (
          <option key={option} value={option}>
            {option || 'any'}
          </option>
        ))}
      </select>
    </label>
  );
}

function Portal() {
  const dashboard = useRef<EmbedHandle>(null);
  const [colorScheme, setColorScheme] = useState<ColorScheme>('light');
  const [theme, setTheme] = useState<keyof typeof THEMES>('default');
  const [locale, setLocale] = useState('en-US');
  const [timezone, setTimezone] = useState('UTC');
  const [status, setStatus] = useState<(typeof STATUSES)[number]>('');
  const { entries, callbacks } = useEventLog();
  return (
    <main>
      <h1 style={{ fontSize: 'var(--service-font-size-lg)', margin: '0 0 var(--service-space-4)' }}>
        Acme partner portal
      </h1>
      <div role="toolbar" aria-label="Dashboard controls" style={bar}>
        <Select
          label="Color scheme"
          value={colorScheme}
          options={['light', 'dark', 'auto'] as const}
          onChange={setColorScheme}
        />
        <Select
          label="Theme"
          value={theme}
          options={Object.keys(THEMES) as (keyof typeof THEMES)[]}
          onChange={setTheme}
        />
        <Select
          label="Language"
          value={locale}
          options={['en-US', 'de-DE', 'fr-FR', 'ja-JP', 'es']}
          onChange={setLocale}
        />
        <Select
          label="Time zone"
          value={timezone}
          options={['UTC', 'Europe/Berlin', 'Asia/Tokyo', 'America/New_York']}
          onChange={setTimezone}
        />
        <Select label="Order status" value={status} options={STATUSES} onChange={setStatus} />
        <button
          type="button"
          style={button}
          onClick={() => dashboard.current?.navigate('/dashboard/sales-overview/widgets/revenue-kpi')}
        >
          Open revenue widget
        </button>
        <button type="button" style={button} onClick={() => dashboard.current?.navigate('/dashboard/sales-overview')}>
          Back to dashboard
        </button>
        <button type="button" style={button} onClick={() => dashboard.current?.refresh()}>
          Refresh
        </button>
      </div>
      <EmbeddedDashboard
        ref={dashboard}
        publicId="sales-overview"
        height={560}
        allowExport
        colorScheme={colorScheme}
        theme={THEMES[theme]}
        locale={locale}
        timezone={timezone}
        filters={{ 'orders.status': status || undefined }}
        {...callbacks}
      />
      <EventLog entries={entries} />
    </main>
  );
}

export const PartnerPortal: Story = {
  render: () => <Portal />,
  play: async ({ canvasElement }) => {
    const state = () => canvasElement.querySelector<HTMLElement>('[data-service-embed]')?.dataset['state'];
    const log = () => canvasElement.querySelector('[data-testid="event-log"]')?.textContent ?? '';
    await waitFor(() => expect(state()).toBe('ready'), { timeout: 15_000 });
    await userEvent.selectOptions(canvasElement.querySelector<HTMLSelectElement>('select')!, 'dark');
    await userEvent.click(
      [...canvasElement.querySelectorAll('button')].find((element) => element.textContent === 'Open revenue widget')!,
    );
    await waitFor(() => expect(log()).toContain('widgets/revenue-kpi'), { timeout: 10_000 });
    // Driven by actions only: one ready, never a reload.
    await expect(log().match(/ready \{/g)).toHaveLength(1);
  },
};
