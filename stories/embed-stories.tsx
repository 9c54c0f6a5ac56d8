/**
 * What the embed stories share: a session override (to show loading and failure against the live
 * emulator), a live event log, and the four states every surface has.
 */
import type { StoryObj } from '@storybook/react-vite';
import { useState, type ReactNode } from 'react';
import { expect, userEvent, waitFor } from 'storybook/test';
import { ServiceProvider, useServiceContext, type AnyEmbedEvent, type EmbedCommonOptions, type EmbedErrorInfo, type GetEmbedSession } from '../src';

/** Re-provides the story's provider with `getEmbedSession` wrapped (the route stays the real one). */
export function SessionOverride({ wrap, children }: { wrap: (route: GetEmbedSession) => GetEmbedSession; children: ReactNode }) {
  const outer = useServiceContext('SessionOverride');
  const [getEmbedSession] = useState(() => wrap((request, options) => outer.getEmbedSession!(request, options)));
  return (
    <ServiceProvider tenantUrl={outer.tenantUrl} getEmbedSession={getEmbedSession}>
      {children}
    </ServiceProvider>
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
export function useEventLog(): { entries: LogEntry[]; callbacks: Pick<EmbedCommonOptions, 'onEvent' | 'onError' | 'onSessionRenewed'> } {
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
    <section aria-label="Event log" style={{ marginTop: 'var(--service-space-4)', fontSize: 'var(--service-font-size-sm)' }}>
      <h2 style={{ fontSize: 'var(--service-font-size-md)', margin: '0 0 var(--service-space-2)' }}>Event log</h2>
      <ol data-testid="event-log" style={{ fontFamily: 'var(--service-font-family-mono)', margin: 0, paddingLeft: 'var(--service-space-6)', maxHeight: 220, overflow: 'auto' }}>
        {entries.map((entry) => (
          <li key={entry.id}>{entry.text}</li>
        ))}
      </ol>
    </section>
  );
}

/** The props every state story passes to the surface. */
export type SurfaceProps = EmbedCommonOptions & { height?: number };

const stateOf = (canvas: HTMLElement): string | undefined => canvas.querySelector<HTMLElement>('[data-service-embed]')?.dataset['state'];
const logText = (canvas: HTMLElement): string => canvas.querySelector('[data-testid="event-log"]')?.textContent ?? '';

/** A surface with its event log. */
function Logged({ render, extra }: { render: (props: SurfaceProps) => ReactNode; extra?: Partial<SurfaceProps> }) {
  const { entries, callbacks } = useEventLog();
  return (
    <>
      {render({ height: 520, ...callbacks, ...extra })}
      <EventLog entries={entries} />
    </>
  );
}

/**
 * The four states of a surface against the live emulator: ready, loading (a session that has not
 * come yet), error with retry (the first session request fails), and renewal (a short session
 * lifetime, renewed while the story runs).
 */
export function surfaceStates(render: (props: SurfaceProps) => ReactNode, readyEvent: string): Record<'Ready' | 'Loading' | 'ErrorWithRetry' | 'Renewal', StoryObj> {
  return {
    Ready: {
      render: () => <Logged render={render} />,
      play: async ({ canvasElement }) => {
        await waitFor(() => expect(stateOf(canvasElement)).toBe('ready'), { timeout: 15_000 });
        await waitFor(() => expect(logText(canvasElement)).toContain(readyEvent), { timeout: 15_000 });
      },
    },
    Loading: {
      render: () => (
        <SessionOverride wrap={() => () => new Promise<string>(() => {})}>
          <Logged render={render} extra={{ readyTimeoutMs: 10 * 60 * 1000 }} />
        </SessionOverride>
      ),
      play: async ({ canvasElement }) => {
        expect(stateOf(canvasElement)).toBe('loading');
        await expect(canvasElement.querySelector('[data-part="placeholder"]')).toBeVisible();
      },
    },
    ErrorWithRetry: {
      render: () => (
        <SessionOverride
          wrap={(route) => {
            let calls = 0;
            return (request, options) => (++calls === 1 ? Promise.reject(new Error('The session route is down (first call of this story)')) : route(request, options));
          }}
        >
          <Logged render={render} />
        </SessionOverride>
      ),
      play: async ({ canvasElement }) => {
        await waitFor(() => expect(stateOf(canvasElement)).toBe('error'), { timeout: 15_000 });
        await userEvent.click(canvasElement.querySelector<HTMLButtonElement>('[data-part="retry"]')!);
        await waitFor(() => expect(stateOf(canvasElement)).toBe('ready'), { timeout: 15_000 });
      },
    },
    Renewal: {
      render: () => <Logged render={render} extra={{ renewAfterMs: 4000 }} />,
      play: async ({ canvasElement }) => {
        await waitFor(() => expect(logText(canvasElement)).toContain('session renewed'), { timeout: 20_000 });
        expect(stateOf(canvasElement)).toBe('ready');
      },
    },
  };
}
