/**
 * One contract for every component `@service/react` exports: it has a `displayName`, forwards its
 * ref to its root element (an embed's ref is its handle), puts the caller's other props (`id`,
 * `className`, `data-*`, `aria-*`, handlers) on that root, and carries `data-part` there. The test
 * walks the entry's exports, so a new component without a case here fails it.
 */
import { fireEvent, render } from '@testing-library/react';
import { createRef, type ComponentType, type ReactNode } from 'react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as entry from '../../../src';
import type { AgentChatController } from '../../../src/core/agent-chat';
import { sqlToolCall } from '../../fixtures/sql-tool-calls';
import { conversation, messageLine, toolLine } from '../../helpers/chat-conversation';

/** React components among the entry's exports (as the docs-page test finds them). */
function isComponent(value: unknown): boolean {
  if (typeof value === 'function') return !/^class\b/.test(Function.prototype.toString.call(value));
  return typeof value === 'object' && value !== null && '$$typeof' in value;
}
const COMPONENTS = Object.entries(entry).filter(([name, value]) => /^[A-Z][a-z]/.test(name) && isComponent(value));

/** Providers render no element of their own: the contract is about parts. */
const PROVIDERS = ['ServiceProvider', 'AgentChatProvider'];

let chat: AgentChatController;
beforeAll(async () => {
  chat = await conversation([
    messageLine('q', 'user', 'Revenue by month?', 1),
    { ...messageLine('t', 'assistant', '', 2), thinking: 'Looking at orders.' },
    toolLine('s', 'serviceSqlApi', { sqlQuery: 'SELECT 1', queryTitle: 'Revenue' }, undefined, 3),
    messageLine('a', 'assistant', 'Revenue **grew**.', 4, true),
  ]);
});
afterAll(() => vi.restoreAllMocks());

const message = (id: string) => chat.getSnapshot().messages.find((candidate) => candidate.id === id)!;
const retry = () => {};

/** Each component's required props, and where it must live. */
const CASES: Record<string, { props: () => Record<string, unknown>; wrap?: 'composer' }> = {
  EmbeddedDashboard: { props: () => ({ publicId: 'sales-overview' }) },
  EmbeddedApp: { props: () => ({ deploymentId: 1 }) },
  EmbeddedChat: { props: () => ({}) },
  EmbedPlaceholder: { props: () => ({ label: 'Loading' }) },
  EmbedErrorState: { props: () => ({ error: undefined, retry, labels: { errorTitle: 'Failed', retry: 'Retry' } }) },
  EmbedRetryButton: { props: () => ({ retry, label: 'Retry' }) },
  SqlToolView: { props: () => ({ call: sqlToolCall('topCustomers') }) },
  ResultTable: {
    props: () => ({ table: { columns: [{ name: 'n', type: 'Int64' }], rows: [['1']], totalRows: 1 } }),
  },
  ResultChart: {
    props: () => ({ spec: { mark: 'bar' }, columns: [{ name: 'n', type: 'Int64' }], rows: [['1']] }),
  },
  StreamingMarkdown: { props: () => ({ text: 'Hello **there**' }) },
  AgentChat: { props: () => ({ chat }) },
  ChatMessageList: { props: () => ({}) },
  ChatMessageItem: { props: () => ({ message: message('a'), final: true }) },
  ChatThinking: { props: () => ({ message: message('t') }) },
  ChatToolCallView: { props: () => ({ message: message('s') }) },
  ChatActivity: { props: () => ({}) },
  ChatMessageActions: { props: () => ({ messageId: 'a' }) },
  ChatComposer: { props: () => ({}) },
  ChatComposerRoot: { props: () => ({}) },
  ChatComposerInput: { props: () => ({}), wrap: 'composer' },
  ChatComposerSend: { props: () => ({}), wrap: 'composer' },
  ChatComposerStop: { props: () => ({}), wrap: 'composer' },
  ChatEmptyState: { props: () => ({ suggestions: ['Top customers'] }) },
  ChatSuggestions: { props: () => ({ suggestions: ['Top customers'] }) },
  ChatAnnouncer: { props: () => ({}) },
  MetricCard: { props: () => ({ query: { measures: ['orders.count'] } }) },
  QueryChart: { props: () => ({ query: { measures: ['orders.count'], dimensions: ['orders.status'] } }) },
  QueryTable: { props: () => ({ query: { measures: ['orders.count'], dimensions: ['orders.status'] } }) },
};

function Host({ wrap, children }: { wrap?: 'composer'; children: ReactNode }): ReactNode {
  const { AgentChatProvider, ChatComposerRoot, ServiceProvider } = entry;
  return (
    <ServiceProvider tenantUrl="https://acme.example.com" getEmbedSession={() => new Promise(() => {})}>
      <AgentChatProvider chat={chat}>
        {wrap === 'composer' ? <ChatComposerRoot>{children}</ChatComposerRoot> : children}
      </AgentChatProvider>
    </ServiceProvider>
  );
}

describe('the component contract', () => {
  it('knows every exported component', () => {
    const names = COMPONENTS.map(([name]) => name);
    expect(names.filter((name) => !PROVIDERS.includes(name) && !Object.hasOwn(CASES, name))).toEqual([]);
    expect(names).toEqual(
      expect.arrayContaining(['AgentChat', 'ResultTable', 'StreamingMarkdown', 'EmbedPlaceholder']),
    );
  });

  it.each(COMPONENTS.filter(([name]) => !PROVIDERS.includes(name)))(
    '%s: displayName, ref to its root, rest props and className on it, data-part',
    (name, component) => {
      const Component = component as ComponentType<Record<string, unknown>>;
      const testCase = CASES[name]!;
      expect((component as { displayName?: string }).displayName).toBe(name);
      const ref = createRef<unknown>();
      const onKeyUp = vi.fn();
      const { container, unmount } = render(
        <Host wrap={testCase.wrap}>
          <Component
            {...testCase.props()}
            ref={ref}
            id="probe"
            className="partner-class"
            data-testid="probe"
            aria-describedby="partner-help"
            onKeyUp={onKeyUp}
          />
        </Host>,
      );
      const root = container.querySelector<HTMLElement>('#probe');
      expect(root, `${name} put no element with the caller's id`).not.toBeNull();
      expect(root!.classList.contains('partner-class')).toBe(true);
      expect(root!.getAttribute('data-testid')).toBe('probe');
      expect(root!.getAttribute('aria-describedby')).toBe('partner-help');
      expect(root!.getAttribute('data-part'), `${name} has no data-part`).toMatch(/^[a-z-]+$/);
      fireEvent.keyUp(root!, { key: 'a' });
      expect(onKeyUp).toHaveBeenCalledTimes(1);
      if (name.startsWith('Embedded')) {
        // An embed's ref is its handle (send and one method per action), on the root's embed.
        expect(typeof (ref.current as { send?: unknown }).send).toBe('function');
        expect(root!.getAttribute('data-part')).toBe('embed');
      } else {
        expect(ref.current).toBe(root);
      }
      unmount();
    },
  );
});
