/**
 * Views of the three surfaces and the in-embed paths they answer to:
 *
 * | surface | path | view |
 * |---|---|---|
 * | dashboard | `/dashboard/{publicId}` (also `/`) | the dashboard |
 * | dashboard | `/dashboard/{publicId}/widgets/{widgetId}` | one widget in detail, with its data as a table |
 * | app | `/` | home: the deployment's workbooks by folder |
 * | app | `/workbooks/{slug}` | a workbook's dashboard |
 * | app | `/workbooks/{slug}/widgets/{widgetId}` | one widget in detail |
 * | app | `/chat` | the AI chat inside the app |
 * | chat | `/` | a new chat |
 * | chat | `/chats/{chatId}` | a thread of this page |
 *
 * @module
 */
import type { PageDashboard } from '../config';
import { format } from '../strings';
import { renderChatPanel, type ChatModel } from './chat';
import type { PageContext } from './context';
import { renderDashboard } from './dashboard';
import { h } from './dom';

/** A resolved in-embed path. */
export interface View {
  /** The canonical path, as `view` and `navigate` report it. */
  path: string;
  title: string;
  publicId?: string;
  /** Builds the view's content; `dispose` detaches it from live models. Called on every re-render. */
  render(): { element: HTMLElement; dispose(): void };
  /** Runs once when the view is entered (mount or navigation), before it renders. */
  enter?(): void;
}

/** What the views need besides the page. */
export interface ViewDeps {
  chat: ChatModel;
  /** Whether the AI panel of a published dashboard is open. */
  chatOpen: boolean;
  setChatOpen(open: boolean): void;
}

const noop = (): void => {};

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** Splits a path into decoded segments; `undefined` when a segment is not valid percent-encoding. */
function segmentsOf(path: string): string[] | undefined {
  const parts = path.split('?')[0]!.split('/').filter(Boolean).map(decode);
  return parts.every((part): part is string => part !== undefined) ? parts : undefined;
}

function dashboardView(
  page: PageContext,
  deps: ViewDeps,
  dashboard: PageDashboard,
  basePath: string,
  widgetId: string | undefined,
): View | undefined {
  if (widgetId !== undefined && !dashboard.widgets.some((widget) => widget.id === widgetId)) return undefined;
  const widget = dashboard.widgets.find((candidate) => candidate.id === widgetId);
  const widgetTitle = typeof widget?.config?.['title'] === 'string' ? widget.config['title'] : widgetId;
  return {
    path: widgetId === undefined ? basePath : `${basePath}/widgets/${encodeURIComponent(widgetId)}`,
    title: widgetId === undefined ? dashboard.title : `${dashboard.title} · ${widgetTitle}`,
    publicId: dashboard.publicId,
    render() {
      const element = renderDashboard(page, { dashboard, basePath, ...(widgetId === undefined ? {} : { widgetId }) });
      let dispose = noop;
      // The AI chat launcher of published dashboards (session `settings.showDashboardChat`).
      if (page.surface === 'dashboard' && page.config.showDashboardChat) {
        if (deps.chatOpen) {
          const panel = renderChatPanel(page, deps.chat, {
            headingLevel: 'h2',
            withHistory: false,
            onClose: () => deps.setChatOpen(false),
          });
          element.append(
            h('aside', { attrs: { class: 'svc-chat-panel', 'aria-label': page.strings.chatTitle } }, panel.element),
          );
          dispose = panel.dispose;
        } else {
          element.append(
            h(
              'button',
              {
                attrs: {
                  type: 'button',
                  class: 'svc-button svc-primary svc-launcher',
                  'data-part': 'chat-launcher',
                  'data-focus-key': 'chat-launcher',
                },
                on: { click: () => deps.setChatOpen(true) },
              },
              page.strings.openChat,
            ),
          );
        }
      }
      return { element, dispose };
    },
  };
}

function appFrame(page: PageContext, current: 'home' | 'chat' | 'workbook', content: HTMLElement): HTMLElement {
  const link = (label: string, path: string, active: boolean) =>
    h(
      'li',
      {},
      h(
        'button',
        {
          attrs: {
            type: 'button',
            class: 'svc-link',
            'aria-current': active ? 'page' : undefined,
            'data-focus-key': `nav-${path}`,
          },
          on: { click: () => page.navigate(path) },
        },
        label,
      ),
    );
  return h(
    'div',
    { attrs: { class: 'svc-app' } },
    h(
      'nav',
      { attrs: { class: 'svc-app-nav', 'aria-label': page.strings.appTitle } },
      h(
        'ul',
        {},
        link(page.strings.appHome, '/', current === 'home'),
        link(page.strings.askAi, '/chat', current === 'chat'),
      ),
      h(
        'p',
        { attrs: { class: 'svc-muted' } },
        format(page.strings.greeting, { name: page.config.viewer.displayName }),
      ),
    ),
    h('div', { attrs: { class: 'svc-app-content' } }, content),
  );
}

function appHome(page: PageContext): HTMLElement {
  const workbooks = page.config.workbooks ?? [];
  const folders = new Map<string, typeof workbooks>();
  for (const workbook of workbooks) {
    const name = workbook.folderPath.length ? workbook.folderPath.join(' / ') : page.strings.rootFolder;
    folders.set(name, [...(folders.get(name) ?? []), workbook]);
  }
  return h(
    'div',
    { attrs: { class: 'svc-home' } },
    h('h1', { attrs: { class: 'svc-title' } }, page.strings.appTitle),
    h('h2', { attrs: { class: 'svc-subtitle' } }, page.strings.workbooks),
    ...[...folders].map(([folder, items]) =>
      h(
        'section',
        { attrs: { class: 'svc-folder', 'aria-label': folder } },
        h('h3', {}, folder),
        h(
          'ul',
          {},
          ...items.map((workbook) =>
            h(
              'li',
              {},
              h(
                'button',
                {
                  attrs: {
                    type: 'button',
                    class: 'svc-link',
                    'data-slug': workbook.slug,
                    'data-focus-key': `workbook-${workbook.slug}`,
                  },
                  on: { click: () => page.navigate(`/workbooks/${encodeURIComponent(workbook.slug)}`) },
                },
                workbook.name,
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

/** The view at `path` of the page's surface, or `undefined` when the surface has no such path. */
export function resolveView(page: PageContext, deps: ViewDeps, path: string): View | undefined {
  const segments = segmentsOf(path);
  if (!segments) return undefined;
  const { config } = page;

  if (page.surface === 'dashboard') {
    const dashboard = config.dashboard;
    if (!dashboard) return undefined;
    const base = `/dashboard/${encodeURIComponent(dashboard.publicId)}`;
    if (segments.length === 0) return dashboardView(page, deps, dashboard, base, undefined);
    if (segments[0] !== 'dashboard' || segments[1] !== dashboard.publicId) return undefined;
    if (segments.length === 2) return dashboardView(page, deps, dashboard, base, undefined);
    if (segments.length === 4 && segments[2] === 'widgets')
      return dashboardView(page, deps, dashboard, base, segments[3]);
    return undefined;
  }

  if (page.surface === 'app') {
    if (segments.length === 0) {
      return {
        path: '/',
        title: page.strings.appTitle,
        render: () => ({ element: appFrame(page, 'home', appHome(page)), dispose: noop }),
      };
    }
    if (segments.length === 1 && segments[0] === 'chat') {
      return {
        path: '/chat',
        title: page.strings.askAi,
        render() {
          const panel = renderChatPanel(page, deps.chat, { headingLevel: 'h1', withHistory: false });
          return { element: appFrame(page, 'chat', panel.element), dispose: panel.dispose };
        },
      };
    }
    if (segments[0] === 'workbooks' && segments[1] !== undefined) {
      const workbook = config.workbooks?.find((candidate) => candidate.slug === segments[1]);
      if (!workbook) return undefined;
      const base = `/workbooks/${encodeURIComponent(workbook.slug)}`;
      if (segments.length === 2 && !workbook.dashboard) {
        return {
          path: base,
          title: workbook.name,
          render: () => ({
            element: appFrame(
              page,
              'workbook',
              h(
                'div',
                {},
                h('h1', { attrs: { class: 'svc-title' } }, workbook.name),
                h('p', { attrs: { class: 'svc-notice' } }, page.strings.noDashboard),
              ),
            ),
            dispose: noop,
          }),
        };
      }
      if (!workbook.dashboard) return undefined;
      const widgetId =
        segments.length === 4 && segments[2] === 'widgets' ? segments[3] : segments.length === 2 ? undefined : null;
      if (widgetId === null) return undefined;
      const view = dashboardView(page, deps, workbook.dashboard, base, widgetId);
      if (!view) return undefined;
      return {
        ...view,
        render() {
          const inner = view.render();
          return { element: appFrame(page, 'workbook', inner.element), dispose: inner.dispose };
        },
      };
    }
    return undefined;
  }

  // chat
  const onOpen = (chatId: string | undefined): void => {
    page.navigate(chatId === undefined ? '/' : `/chats/${encodeURIComponent(chatId)}`);
  };
  if (segments.length === 0) {
    return {
      path: '/',
      title: page.strings.chatTitle,
      enter() {
        if (!deps.chat.busy) deps.chat.reset();
      },
      render: () => renderChatPanel(page, deps.chat, { headingLevel: 'h1', withHistory: true, onOpen }),
    };
  }
  if (segments.length === 2 && segments[0] === 'chats') {
    const chatId = segments[1]!;
    const thread = deps.chat.threads.find((candidate) => deps.chat.chatIdOf(candidate) === chatId);
    if (!thread) return undefined;
    return {
      path: `/chats/${encodeURIComponent(chatId)}`,
      title: thread.title,
      enter() {
        deps.chat.open(chatId);
      },
      render: () => renderChatPanel(page, deps.chat, { headingLevel: 'h1', withHistory: true, onOpen }),
    };
  }
  return undefined;
}
