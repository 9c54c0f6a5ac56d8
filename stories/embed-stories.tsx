/**
 * What the embed stories share: a session override (to show loading and failure against the live
 * emulator), a live event log, and the four states every surface has.
 */
import type { ArgTypes, StoryObj } from '@storybook/react-vite';
import { useState, type ReactNode } from 'react';
import { expect, fn, userEvent, waitFor } from 'storybook/test';
import {
  DEFAULT_READY_TIMEOUT_MS,
  DEFAULT_RENEW_AFTER_MS,
  ServiceProvider,
  useServiceContext,
  type AnyEmbedEvent,
  type EmbedCommonOptions,
  type EmbedErrorInfo,
  type EmbedFrameProps,
  type GetEmbedSession,
} from '../src';

/**
 * The controls every embed's docs page starts from: the declarative view state (sent as actions
 * when a control changes, never a reload), the frame's size and timeouts, and every callback as
 * an action, so the Actions panel logs the events the embed sends.
 */
export const embedArgs = {
  colorScheme: 'light',
  locale: 'en-US',
  timezone: 'UTC',
  height: 520,
  readyTimeoutMs: DEFAULT_READY_TIMEOUT_MS,
  renewAfterMs: DEFAULT_RENEW_AFTER_MS,
  onEvent: fn(),
  onReady: fn(),
  onView: fn(),
  onNavigate: fn(),
  onDashboardLoaded: fn(),
  onDownload: fn(),
  onDrilldown: fn(),
  onAiQuery: fn(),
  onError: fn(),
  onSessionRenewed: fn(),
} satisfies EmbedCommonOptions & EmbedFrameProps;

/** Controls of the props that are not plain data: render functions are code, not settings. */
export const embedArgTypes: Partial<ArgTypes> = {
  colorScheme: { control: 'inline-radio', options: ['light', 'dark', 'auto'] },
  height: { control: { type: 'number', min: 120, step: 20 } },
  locale: { control: 'select', options: ['en-US', 'de-DE', 'fr-FR', 'ja-JP', 'es'] },
  timezone: { control: 'select', options: ['UTC', 'Europe/Berlin', 'Asia/Tokyo', 'America/New_York'] },
  theme: { control: 'object' },
  filters: { control: 'object' },
  switches: { control: 'object' },
  labels: { control: 'object' },
  renderPlaceholder: { control: false },
  renderError: { control: false },
};

/** A story's play: the embed reaches `ready`, and `onReady` (an action) is called with the typed event. */
export async function becomesReady({
  canvasElement,
  args,
}: {
  canvasElement: HTMLElement;
  args: Pick<EmbedCommonOptions, 'onReady'>;
}): Promise<void> {
  await waitFor(() => expect(stateOf(canvasElement)).toBe('ready'), { timeout: 15_000 });
  await waitFor(
    () => expect(args.onReady).toHaveBeenCalledWith(expect.objectContaining({ type: 'service:event:ready' })),
    { timeout: 15_000 },
  );
}

/** Re-provides the story's provider with `getEmbedSession` wrapped (the route stays the real one). */
export function SessionOverride({
  wrap,
  children,
}: {
  wrap: (route: GetEmbedSession) => GetEmbedSession;
  children: ReactNode;
}) {
  const outer = useServiceContext('SessionOverride');
  const [getEmbedSession] = useState(() => wrap((request, options) => outer.getEmbedSession!(request, options)));
  return (
    <ServiceProvider tenantUrl={outer.tenantUrl} getEmbedSession={getEmbedSession}>
      {children}
    </ServiceProvider>
  );
}

/** The box of an embed's frame, for its parts alone: they cover it exactly (no layout shift). */
export function Frame({ children }: { children: ReactNode }): ReactNode {
  return (
    <div
      data-service-embed=""
      style={{ position: 'relative', height: 240, maxWidth: 640, border: '1px solid var(--service-color-border)' }}
    >
      {children}
    </div>
  );
}

/** One line of the log. */
export interface LogEntry {
  id: number;
  text: string;
}

function describeEvent(event: AnyEmbedEvent): string {
  const payload = JSON.stringify(event.payload);
  return `${event.type.replace('service:event:', '')} ${payload.length > 90 ? `${payload.slice(0, 90)}…` : payload}`;
}

/** The callbacks of an embed, each writing to a log the story shows. */
export function useEventLog(): {
  entries: LogEntry[];
  callbacks: Pick<EmbedCommonOptions, 'onEvent' | 'onError' | 'onSessionRenewed'>;
} {
  const [entries, setEntries] = useState<LogEntry[]>([]);
  const add = (text: string) => setEntries((current) => [...current, { id: current.length, text }]);
  return {
    entries,
    callbacks: {
      onEvent: (event) => add(describeEvent(event)),
      onError: (error: EmbedErrorInfo) => {
        if (!('type' in error)) add(`local error ${error.name} (${error.code}): ${error.message}`);
      },
      onSessionRenewed: () => add('session renewed'),
    },
  };
}

/** The live event log. */
export function EventLog({ entries }: { entries: readonly LogEntry[] }) {
  return (
    <section
      aria-label="Event log"
      style={{ marginTop: 'var(--service-space-4)', fontSize: 'var(--service-font-size-sm)' }}
    >
      <h2 style={{ fontSize: 'var(--service-font-size-md)', margin: '0 0 var(--service-space-2)' }}>Event log</h2>
      <ol
        data-testid="event-log"
        style={{
          fontFamily: 'var(--service-font-family-mono)',
          margin: 0,
          paddingLeft: 'var(--service-space-6)',
          maxHeight: 220,
          overflow: 'auto',
        }}
      >
        {entries.map((entry) => (
          <li key={entry.id}>{entry.text}</li>
        ))}
      </ol>
    </section>
  );
}

/** The props every state story passes to the surface. */
export type SurfaceProps = EmbedCommonOptions & { height?: number };

const stateOf = (canvas: HTMLElement): string | undefined =>
  canvas.querySelector<HTMLElement>('[data-service-embed]')?.dataset['state'];
const logText = (canvas: HTMLElement): string => canvas.querySelector('[data-testid="event-log"]')?.textContent ?? '';

/** A surface with its event log; the story's controls apply, the log's callbacks and the state's `extra` over them. */
function Logged({
  render,
  args,
  extra,
}: {
  render: (props: SurfaceProps) => ReactNode;
  args: Partial<SurfaceProps>;
  extra?: Partial<SurfaceProps>;
}) {
  const { entries, callbacks } = useEventLog();
  return (
    <>
      {render({ height: 520, ...args, ...callbacks, ...extra })}
      <EventLog entries={entries} />
    </>
  );
}

/**
 * The states of a surface against the live emulator: ready, loading (a session that has not come
 * yet: the skeleton), error with retry (the first session request fails), error without retry (a
 * setup error the viewer cannot fix), renewal in place (a short session lifetime, renewed while
 * the story runs without a reload), and renewal by reload (the page refuses the new session).
 */
export function surfaceStates(
  render: (props: SurfaceProps) => ReactNode,
  readyEvent: string,
): Record<'Ready' | 'Loading' | 'ErrorWithRetry' | 'ErrorWithoutRetry' | 'Renewal' | 'RenewalByReload', StoryObj> {
  return {
    Ready: {
      render: (args) => <Logged render={render} args={args} />,
      play: async ({ canvasElement }) => {
        await waitFor(() => expect(stateOf(canvasElement)).toBe('ready'), { timeout: 15_000 });
        await waitFor(() => expect(logText(canvasElement)).toContain(readyEvent), { timeout: 15_000 });
      },
    },
    Loading: {
      render: (args) => (
        <SessionOverride wrap={() => () => new Promise<string>(() => {})}>
          <Logged render={render} args={args} extra={{ readyTimeoutMs: 10 * 60 * 1000 }} />
        </SessionOverride>
      ),
      play: async ({ canvasElement }) => {
        await expect(stateOf(canvasElement)).toBe('loading');
        await expect(canvasElement.querySelector('[data-part="placeholder"]')).toBeVisible();
        // The skeleton fills the embed, so nothing moves when the page appears.
        const root = canvasElement.querySelector('[data-service-embed]')!.getBoundingClientRect();
        const skeleton = canvasElement.querySelector('[data-part="skeleton"]')!.getBoundingClientRect();
        await expect(skeleton.width).toBeGreaterThan(root.width - 40);
        await expect(skeleton.height).toBeGreaterThan(root.height - 40);
      },
    },
    ErrorWithRetry: {
      render: (args) => (
        <SessionOverride
          wrap={(route) => {
            let calls = 0;
            return (request, options) =>
              ++calls === 1
                ? Promise.reject(new Error('The session route is down (first call of this story)'))
                : route(request, options);
          }}
        >
          <Logged render={render} args={args} />
        </SessionOverride>
      ),
      play: async ({ canvasElement }) => {
        await waitFor(() => expect(stateOf(canvasElement)).toBe('error'), { timeout: 15_000 });
        await userEvent.click(canvasElement.querySelector<HTMLButtonElement>('[data-part="retry"]')!);
        await waitFor(() => expect(stateOf(canvasElement)).toBe('ready'), { timeout: 15_000 });
      },
    },
    ErrorWithoutRetry: {
      render: (args) => (
        <SessionOverride wrap={() => () => Promise.resolve('')}>
          <Logged render={render} args={args} />
        </SessionOverride>
      ),
      play: async ({ canvasElement }) => {
        await waitFor(() => expect(stateOf(canvasElement)).toBe('error'), { timeout: 15_000 });
        await expect(canvasElement.querySelector('[data-part="error-message"]')).toHaveTextContent(
          'It is not set up correctly.',
        );
        await expect(canvasElement.querySelector('[data-part="retry"]')).toBeNull();
      },
    },
    Renewal: {
      render: (args) => <Logged render={render} args={args} extra={{ renewAfterMs: 4000 }} />,
      play: async ({ canvasElement }) => {
        await waitFor(() => expect(stateOf(canvasElement)).toBe('ready'), { timeout: 15_000 });
        const iframe = canvasElement.querySelector('iframe')!;
        const src = iframe.src;
        await waitFor(() => expect(logText(canvasElement)).toContain('session renewed'), { timeout: 20_000 });
        // Renewed in place: the same page, never hidden.
        await expect(stateOf(canvasElement)).toBe('ready');
        await expect(iframe.src).toBe(src);
      },
    },
    RenewalByReload: {
      render: (args) => (
        <SessionOverride
          wrap={(route) => {
            // The renewal hands the page its first session again, which it must refuse as used:
            // the embed then reloads with a fresh one (data-state renewing, then ready).
            let first: Promise<string> | undefined;
            let calls = 0;
            return (request, options) => {
              calls += 1;
              if (calls === 1) return (first = route(request, options));
              return calls === 2 && first ? first : route(request, options);
            };
          }}
        >
          <Logged render={render} args={args} extra={{ renewAfterMs: 4000 }} />
        </SessionOverride>
      ),
      play: async ({ canvasElement }) => {
        await waitFor(() => expect(stateOf(canvasElement)).toBe('ready'), { timeout: 15_000 });
        const iframe = canvasElement.querySelector('iframe')!;
        const src = iframe.src;
        await waitFor(() => expect(logText(canvasElement)).toContain('session renewed'), { timeout: 20_000 });
        await expect(logText(canvasElement)).toContain('already been used');
        await expect(stateOf(canvasElement)).toBe('ready');
        await expect(iframe.src).not.toBe(src);
      },
    },
  };
}
