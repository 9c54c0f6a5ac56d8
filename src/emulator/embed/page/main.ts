/**
 * The script of the emulator's embed pages (bundled into `page-script.generated.ts`, served as
 * `/embed/_assets/page.js`). It reads the {@link EmbedPageConfig} the server wrote into the
 * page, mounts the surface, and speaks embed messaging with the embedding page:
 *
 * - load order (behaviour 2): `ready` once mounted (before any data), then `view`, then
 *   on dashboards `dashboard-loaded` when every widget has rendered;
 * - a page that could not authenticate shows its error and posts one fatal `error`, nothing else;
 * - every action of 6.3 (and `set-timezone`) has a visible effect; actions this version does not
 *   know are ignored;
 * - its session: `session-expiring` a few minutes before the token lapses by the emulator's clock
 *   (read every second), `session-expired` once it has; `set-session` renews it in place (the
 *   page's state stays) and is answered with `ready`, or refused with an error of context `session`;
 * - with `?__emulatorEcho=1`, a debug event with the page's state follows every change
 *   (`ECHO_PARAMETER` in `config.ts`).
 *
 * @module
 */
import { createDataClient } from '../../../core/data-client';
import { ServiceAuthError } from '../../../core/errors';
import { isTimeZone, resolveLocale, type EmbedAction, type SupportedLocale } from '../../../core/protocol/embed';
import { createSubscribable, type Subscribable } from '../../../core/store';
import {
  CLOCK_PATH,
  CLOCK_POLL_MS,
  CONFIG_ELEMENT_ID,
  ECHO_PARAMETER,
  SESSION_EXPIRED_EVENT_TYPE,
  SESSION_EXPIRING_LEAD_MS,
  SET_SESSION_PATH,
  STATE_EVENT_TYPE,
  type SetSessionAnswer,
  type SetSessionRequest,
  type EmbedPageConfig,
  type EmbedPageState,
  type EmbedPageWidgetState,
  type EmbedSwitches,
} from '../config';
import { applyToQuery, readFilterParameters, readTimeGrainParameters } from '../filters';
import { format, stringsFor } from '../strings';
import { resolveView, type View, type ViewDeps } from './app';
import { createChatModel, visibleMessages } from './chat';
import type { PageContext, QueryState } from './context';
import { loadAll } from './dashboard';
import { h, replaceChildren } from './dom';
import { createFormatter } from './format';
import { createMessenger, type Messenger } from './messaging';
import { createTheme, type ThemeController } from './theme';

function readConfig(): EmbedPageConfig {
  const element = document.getElementById(CONFIG_ELEMENT_ID);
  return JSON.parse(element?.textContent ?? '{}') as EmbedPageConfig;
}

/** Only the literal `false` turns a part off (behaviour 2). */
function switchesOf(params: URLSearchParams): EmbedSwitches {
  const off = (name: string): boolean => params.get(name) === 'false';
  return {
    header: !off('showDashboardHeader'),
    title: !off('showDashboardTitle'),
    exportMenu: !off('showDashboardExportMenu'),
    newChat: !off('showNewChat'),
    chatInput: !off('showChatInput'),
    chatHistory: !off('showChatHistory'),
  };
}

function isVisible(element: Element | null): boolean {
  if (!element) return false;
  if (element.closest('.svc-visually-hidden, [hidden]')) return false;
  return element.getClientRects().length > 0;
}

/** What {@link readState} reads besides the DOM. */
interface StateSources {
  theme: ThemeController;
  locale: string;
  timezone: string;
  path: string;
  filters: ReadonlyMap<string, unknown>;
  timeGrains: ReadonlyMap<string, string>;
  refreshCount: number;
  queryRuns: number;
  chatMessages: string[];
}

/** The page's state as the viewer sees it, for the debug echo (`ECHO_PARAMETER`). */
function readState(sources: StateSources, seq: number, reason: string): EmbedPageState {
  const probe = h('span', { attrs: { class: 'svc-probe' } });
  document.body.append(probe);
  const probeStyle = getComputedStyle(probe);
  const bodyStyle = getComputedStyle(document.body);
  const computed = {
    background: bodyStyle.backgroundColor,
    text: bodyStyle.color,
    primary: probeStyle.color,
    borderRadius: probeStyle.borderTopLeftRadius,
    fontFamily: bodyStyle.fontFamily,
  };
  probe.remove();
  const heading = [...document.querySelectorAll('h1')].find((element) => isVisible(element));
  const widgets: EmbedPageWidgetState[] = [...document.querySelectorAll<HTMLElement>('[data-widget-id]')].map(
    (element) => ({
      id: element.dataset['widgetId'] ?? '',
      type: element.dataset['widgetType'] ?? '',
      title: element.dataset['title'] ?? '',
      status: (element.dataset['status'] ?? 'loading') as EmbedPageWidgetState['status'],
      ...(element.dataset['rows'] !== undefined ? { rowCount: Number(element.dataset['rows']) } : {}),
      exportable: element.querySelector('[data-action="download-csv"]') !== null,
    }),
  );
  const part = (name: string): boolean => isVisible(document.querySelector(`[data-part="${name}"]`));
  return {
    seq,
    reason,
    colorScheme: sources.theme.scheme,
    appliedScheme: sources.theme.applied,
    computed,
    locale: sources.locale,
    lang: document.documentElement.lang,
    timezone: sources.timezone,
    path: sources.path,
    heading: heading?.textContent?.trim() ?? '',
    filters: Object.fromEntries(sources.filters),
    timeGrains: Object.fromEntries(sources.timeGrains),
    refreshCount: sources.refreshCount,
    queryRuns: sources.queryRuns,
    refreshedText: document.querySelector('[data-part="refreshed"]')?.textContent ?? '',
    timezoneText: document.querySelector('[data-part="timezone"]')?.textContent ?? '',
    widgets,
    visible: {
      header: part('header'),
      title: part('title'),
      exportMenu: part('export-menu'),
      newChat: part('new-chat'),
      chatInput: part('chat-input'),
      chatHistory: part('chat-history'),
      chatLauncher: part('chat-launcher'),
    },
    buttons: [...document.querySelectorAll('button, summary')]
      .filter(isVisible)
      .map((element) => (element.getAttribute('aria-label') ?? element.textContent ?? '').trim()),
    chatMessages: sources.chatMessages,
  };
}

function start(): void {
  const config = readConfig();
  const params = new URLSearchParams(location.search);
  const echo = params.get(ECHO_PARAMETER) === '1';
  const messenger = createMessenger(config.surface);
  const root =
    document.getElementById('svc-root') ?? document.body.appendChild(h('main', { attrs: { id: 'svc-root' } }));
  const mountedAt = performance.now();

  let seq = 0;
  let sources: () => StateSources;
  const changed = (reason: string): void => {
    if (!echo) return;
    seq += 1;
    messenger.postUnknown(STATE_EVENT_TYPE, { ...readState(sources(), seq, reason) });
  };

  let locale: SupportedLocale = resolveLocale(params.get('locale') ?? config.defaultLocale);
  const requestedZone = params.get('timezone');
  let timezone = requestedZone !== null && isTimeZone(requestedZone) ? requestedZone : config.defaultTimezone;
  const theme = createTheme(config.theme ?? {}, () => changed('system-color-scheme'));
  const applyLang = (): void => {
    document.documentElement.lang = locale;
  };
  applyLang();

  const framedWithoutOrigin = window.parent !== window && messenger.parentOrigin === null;

  // Failed authentication or mount: the error is all there is.
  if (config.error) {
    showMountError(root, config, config.error, locale, messenger);
    sources = () => ({
      theme,
      locale,
      timezone,
      path: '',
      filters: new Map(),
      timeGrains: new Map(),
      refreshCount: 0,
      queryRuns: 0,
      chatMessages: [],
    });
    changed('mount');
    return;
  }

  const session = watchSession(messenger, config);

  const filters = readFilterParameters(params).set;
  const timeGrains = readTimeGrainParameters(params);
  // Read on each query: `set-session` replaces the token in place.
  const data = createDataClient({ url: config.dataUrl, token: () => config.token });
  // Each query entry tells the widgets waiting on it, once, when it settles.
  const cache = new Map<string, { key: string; generation: number; state: QueryState; settled: Subscribable }>();
  let generation = 0;
  let pending = 0;
  let queryRuns = 0;
  let refreshCount = 0;
  let refreshedAt: number | null = null;
  let view: View | undefined;
  let disposeView = (): void => {};
  let navigating = false;
  let chatOpen = false;
  let formatter = createFormatter(locale, timezone);

  const chat = createChatModel(() => page);
  const deps: ViewDeps = {
    chat,
    get chatOpen() {
      return chatOpen;
    },
    setChatOpen(open) {
      chatOpen = open;
      render();
      changed(open ? 'chat-open' : 'chat-close');
    },
  };

  const settled = (): void => {
    refreshedAt = Date.now();
    const line = document.querySelector('[data-part="refreshed"]');
    if (line) line.textContent = format(page.strings.lastRefreshed, { time: page.format.moment(refreshedAt) });
    changed('render');
  };

  const page: PageContext = {
    config,
    surface: config.surface,
    messenger,
    data,
    get locale() {
      return locale;
    },
    get strings() {
      return stringsFor(locale);
    },
    get timezone() {
      return timezone;
    },
    get format() {
      return formatter;
    },
    allowExport: params.get('allowExport') === 'true',
    switches: switchesOf(params),
    filters,
    timeGrains,
    get path() {
      return view?.path ?? '/';
    },
    get refreshedAt() {
      return refreshedAt;
    },
    get refreshCount() {
      return refreshCount;
    },
    query(widgetId, query, onSettled) {
      const effective = applyToQuery(query, { filters, timeGrains, timezone });
      const key = JSON.stringify(effective);
      let entry = cache.get(widgetId);
      if (!entry || entry.key !== key || entry.generation !== generation) {
        const current = {
          key,
          generation,
          state: { status: 'loading', key } as QueryState,
          settled: createSubscribable(),
        };
        cache.set(widgetId, current);
        entry = current;
        pending += 1;
        queryRuns += 1;
        data
          .load(effective)
          .then(
            (result) => {
              current.state = { status: 'ready', key, result };
            },
            (error: unknown) => {
              const message = error instanceof Error ? error.message : String(error);
              current.state = { status: 'error', key, message };
              if (ServiceAuthError.isInstance(error)) {
                session.lapse();
                return;
              }
              messenger.post({
                surface: config.surface,
                type: 'service:event:error',
                payload: {
                  message: `${stringsFor('en-US').failedToLoad}: ${message}`,
                  name: error instanceof Error ? error.name : 'Error',
                  context: 'embed-render',
                  fatal: false,
                },
              });
            },
          )
          .finally(() => {
            pending -= 1;
            current.settled.notify();
            if (pending === 0) settled();
          });
      }
      if (entry.state.status === 'loading') entry.settled.subscribe(onSettled);
      return entry.state;
    },
    navigate(path) {
      return go(path, 'viewer');
    },
    setFilter(member, condition) {
      if (condition === undefined) filters.delete(member);
      else filters.set(member, condition);
      render();
      changed('filter');
    },
    setTimeGrain(member, grain) {
      timeGrains.set(member, grain);
      render();
      changed('time-grain');
    },
    refresh() {
      generation += 1;
      refreshCount += 1;
      render();
    },
    render: () => render(),
    changed,
  };

  function render(): void {
    if (!view) return;
    const focusKey = document.activeElement?.getAttribute('data-focus-key');
    disposeView();
    const { element, dispose } = view.render();
    disposeView = dispose;
    replaceChildren(
      root,
      framedWithoutOrigin
        ? h('p', { attrs: { role: 'status', class: 'svc-notice' } }, page.strings.noParentOrigin)
        : null,
      element,
    );
    document.title = view.title;
    if (focusKey) root.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(focusKey)}"]`)?.focus();
  }

  function postView(current: View): void {
    messenger.post({
      surface: config.surface,
      type: 'service:event:view',
      payload: {
        surface: config.surface,
        path: current.path,
        title: current.title,
        ...(current.publicId ? { publicId: current.publicId } : {}),
      },
    });
  }

  /** Goes to `path`; posts `navigate` and `view` (6.2), or a non-fatal error for an unknown path. */
  function go(path: string, cause: string): boolean {
    const next = resolveView(page, deps, path);
    if (!next) {
      messenger.post({
        surface: config.surface,
        type: 'service:event:error',
        payload: { message: format(stringsFor('en-US').unknownPath, { path }), context: 'navigate', fatal: false },
      });
      changed(`${cause}:unknown-path`);
      return false;
    }
    const previousPath = view?.path;
    view = next;
    navigating = true;
    next.enter?.();
    navigating = false;
    chatOpen = false;
    render();
    messenger.post({
      surface: config.surface,
      type: 'service:event:navigate',
      payload: previousPath === undefined ? { path: next.path } : { path: next.path, previousPath },
    });
    postView(next);
    changed(cause === 'viewer' ? 'navigate' : cause);
    return true;
  }

  // Re-render when the chat's threads change (a new thread, a chat id learned), so the history
  // and the chat surface's paths follow; message text updates itself inside the panel.
  let threadSignature = '';
  function followThreads(): void {
    const signature =
      chat.threads.map((thread) => chat.chatIdOf(thread) ?? '?').join(',') +
      `|${chat.threads.indexOf(chat.current!)}|${chat.busy}`;
    if (signature === threadSignature || navigating) return;
    threadSignature = signature;
    render();
    changed('chat');
  }
  chat.subscribe(followThreads);

  // `set-session`: exchange the new session on the server as a load would, swap the tokens in
  // place, keep everything on screen, and say `ready` (once per session); or say why not, with an
  // error of context `session`, and keep the old token. One at a time, in the order they came.
  let renewing = Promise.resolve();
  async function renew(sessionId: string): Promise<void> {
    const body: SetSessionRequest = {
      sessionId,
      token: config.token,
      surface: config.surface,
      deploymentId: config.deploymentId ?? 0,
      ...(config.dashboard ? { publicId: config.dashboard.publicId } : {}),
    };
    try {
      const response = await fetch(SET_SESSION_PATH, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = (await response.json()) as SetSessionAnswer & { error?: string };
      if (!response.ok) throw new Error(answer.error ?? `HTTP ${response.status}`);
      config.token = answer.token;
      if (config.chat && answer.chatToken) config.chat.token = answer.chatToken;
      session.renewed(answer.tokenExpiresAt);
      postReady(messenger, config);
      changed('set-session');
    } catch (error) {
      messenger.post({
        surface: config.surface,
        type: 'service:event:error',
        payload: {
          message: error instanceof Error ? error.message : String(error),
          name: 'EmbedSessionError',
          context: 'session',
          fatal: false,
        },
      });
      changed('set-session:refused');
    }
  }

  function apply(action: EmbedAction): void {
    switch (action.type) {
      case 'service:action:set-color-scheme':
        theme.setScheme(action.payload.scheme);
        break;
      case 'service:action:set-theme':
        theme.setTheme(action.payload);
        break;
      case 'service:action:set-locale':
        locale = resolveLocale(action.payload.locale);
        applyLang();
        formatter = createFormatter(locale, timezone);
        render();
        break;
      case 'service:action:set-timezone':
        timezone = action.payload.timezone;
        formatter = createFormatter(locale, timezone);
        render();
        break;
      case 'service:action:set-filter': {
        const parsed = readFilterParameters(action.payload.filterUrlParameter);
        for (const member of parsed.cleared) filters.delete(member);
        for (const [member, condition] of parsed.set) filters.set(member, condition);
        render();
        break;
      }
      case 'service:action:navigate':
        go(action.payload.path, action.type);
        return;
      case 'service:action:refresh':
        page.refresh();
        break;
      case 'service:action:set-session':
        renewing = renewing.then(() => renew(action.payload.sessionId));
        return;
      default:
        // Actions of a newer protocol: nothing to do in the emulator.
        return;
    }
    changed(action.type);
  }

  sources = () => ({
    theme,
    locale,
    timezone,
    path: view?.path ?? '',
    filters,
    timeGrains,
    refreshCount,
    queryRuns,
    chatMessages: visibleMessages(chat).map((message) => `${message.role}: ${message.text}`),
  });

  // Mount: the first view, then `ready` (authenticated and mounted, before data), then `view`.
  const first = resolveView(
    page,
    deps,
    config.surface === 'dashboard' && config.dashboard
      ? `/dashboard/${encodeURIComponent(config.dashboard.publicId)}`
      : '/',
  );
  if (!first) return;
  view = first;
  first.enter?.();
  messenger.onAction(apply);
  render();
  postReady(messenger, config);
  postView(first);
  changed('mount');

  if (config.surface === 'dashboard' && config.dashboard) announceDashboardLoaded(page, config.dashboard, mountedAt);
}

/** What `start` does with the token's lapse: tell it, and start over for a renewed token. */
interface SessionWatch {
  /** The token lapsed (the data API refused it): `session-expired`, once per token. */
  lapse(): void;
  /** `set-session` brought a new token, lapsing at `expiresAt`. */
  renewed(expiresAt: number): void;
}

/**
 * Watches the token by the emulator's clock (read every {@link CLOCK_POLL_MS} ms): a few minutes
 * before it lapses, `session-expiring` with when; once it has (or the data API refused it),
 * `session-expired` with `{}`. Each once per token.
 */
function watchSession(messenger: Messenger, config: EmbedPageConfig): SessionWatch {
  let expired = false;
  let expiring = false;
  let expiresAt = config.tokenExpiresAt;
  const lapse = (): void => {
    if (expired) return;
    expired = true;
    messenger.postUnknown(SESSION_EXPIRED_EVENT_TYPE, {});
  };
  const readClock = (): void => {
    if (expiresAt === undefined || expired) return;
    fetch(CLOCK_PATH, { cache: 'no-store' })
      .then((response) => response.json() as Promise<{ now: number }>)
      .then(({ now }) => {
        if (expiresAt === undefined) return;
        if (now >= expiresAt) lapse();
        else if (!expiring && now >= expiresAt - SESSION_EXPIRING_LEAD_MS) {
          expiring = true;
          // In the browser's time, which the host compares it with: a manual clock is the
          // emulator's alone.
          const left = expiresAt - now;
          messenger.post({
            surface: config.surface,
            type: 'service:event:session-expiring',
            payload: { expiresAt: Date.now() + left },
          });
        }
      })
      // The emulator is gone (a test ended): nothing to tell.
      .catch(() => undefined);
  };
  setInterval(readClock, CLOCK_POLL_MS);
  return {
    lapse,
    renewed(at) {
      expiresAt = at;
      expired = expiring = false;
    },
  };
}

/** `service:event:ready`: authenticated and mounted, before any data (6.2, behaviour 2). */
function postReady(messenger: Messenger, config: EmbedPageConfig): void {
  messenger.post({
    surface: config.surface,
    type: 'service:event:ready',
    payload: {
      embedTenant: config.embedTenant,
      deploymentId: config.deploymentId,
      mode: 'signed',
      surface: config.surface,
      ...(config.dashboard ? { publicId: config.dashboard.publicId } : {}),
    },
  });
}

/**
 * A page whose authentication or mount failed: its error on screen (the server put it there
 * already; this only makes sure of it) and a fatal `service:event:error`.
 */
function showMountError(
  root: HTMLElement,
  config: EmbedPageConfig,
  error: NonNullable<EmbedPageConfig['error']>,
  locale: SupportedLocale,
  messenger: Messenger,
): void {
  const { message, display, context, name } = error;
  if (!root.querySelector('[data-part="error"]')) {
    replaceChildren(
      root,
      h(
        'div',
        { attrs: { role: 'alert', class: 'svc-error', 'data-part': 'error' } },
        h('h1', { attrs: { class: 'svc-title' } }, stringsFor(locale).errorTitle),
        h('p', {}, display),
      ),
    );
  }
  messenger.post({
    surface: config.surface,
    type: 'service:event:error',
    payload: { message, name, context, fatal: true },
  });
}

/** Loads every widget of the dashboard, then posts `dashboard-loaded` once they are drawn. */
function announceDashboardLoaded(
  page: PageContext,
  dashboard: NonNullable<EmbedPageConfig['dashboard']>,
  mountedAt: number,
): void {
  void loadAll(page, dashboard).then((widgetCount) => {
    let posted = false;
    const post = (): void => {
      if (posted) return;
      posted = true;
      page.messenger.post({
        surface: 'dashboard',
        type: 'service:event:dashboard-loaded',
        payload: {
          publicId: dashboard.publicId,
          widgetCount,
          loadDurationMs: Math.round(performance.now() - mountedAt),
        },
      });
    };
    // After the browser has drawn the last widget; the timer covers a hidden iframe, where
    // animation frames do not run.
    requestAnimationFrame(post);
    setTimeout(post, 100);
  });
}

start();
