/**
 * Server-side commands of the browser tests (vitest `browser.commands`): they run in the vitest
 * Node process and are called from test code with `import { commands } from 'vitest/browser'`.
 *
 * - `mintEmbedSession(request, options?)`: mints an embed session on the emulator that
 *   `global-setup.ts` started, with its admin API key, exactly as a partner's server does
 *   (`POST /api/v1/embed/generate-session`). API keys never reach a browser, so the test page
 *   cannot do it itself. `options.ageMs` makes the session look minted that long ago (its
 *   timestamps are moved back in the emulator's state), to test the 5-minute window without
 *   moving any clock other tests share.
 * - `signDataToken(options?)`: a deployment JWT signed in Node, as a partner's server signs it.
 * - `clockedEmulator()`, `mintClockedSession(request, options?)`, `advanceEmulatorClock(ms)`: an
 *   emulator of the calling test file alone, on a manual clock, a session minted on it through a
 *   partner's session route, and its clock moved forward (session expiry and renewal).
 * - `emulateColorScheme(scheme)`: what the operating system prefers (`prefers-color-scheme`), for
 *   the page and every frame in it, through Playwright; `emulateReducedMotion(motion)` the same for
 *   `prefers-reduced-motion`.
 * - `auditFrameAccessibility(urlPart)`: axe-core's WCAG 2 A/AA audit of a cross-origin frame.
 * - `startRequestLog()` / `stopRequestLog()`: every request the browser sends from the test page
 *   (any frame, any resource type) in between, from Playwright's `request` events: what the
 *   page's own APIs (resource timing, CSP reports) may not see.
 * - `postFromEmbedFrame(urlPart, message, options?)`: messages posted by a cross-origin embed frame
 *   itself to its parent (floods, misbehaving pages).
 *
 * The emulator is found through a registry on `globalThis` that `global-setup.ts` fills: the
 * config (which imports this file) and the global setup are loaded as separate module graphs of
 * the same process.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { BrowserCommand } from 'vitest/node';
import type { Frame, Page, Request } from 'playwright';
import type { EmulatorContext, ManualClock, SignDeploymentTokenOptions } from '../../src/emulator';
import { createSessionHandler } from '../../src/server/index.ts';

/** Key of the registry on `globalThis`. */
export const EMULATOR_REGISTRY = Symbol.for('@service/react/browser-tests/emulator');

/** What `global-setup.ts` registers. */
export interface EmulatorRegistry {
  url: string;
  apiKey: string;
  context: EmulatorContext;
  /**
   * `signDeploymentToken` of that emulator, by its clock. Passed in, not imported: the config
   * imports this file, and must not bundle the emulator (its generated page script may not exist yet).
   */
  signToken(options: SignDeploymentTokenOptions): Promise<string>;
  /**
   * Starts an emulator whose clock only moves when a test says so (session renewal tests): one per
   * test file and project ({@link clockedEmulator}), so moving its clock never expires the sessions
   * of a file running at the same time. Closed with the other servers.
   */
  startClocked(): Promise<ClockedEmulator>;
}

/** An emulator on a manual clock. */
export interface ClockedEmulator {
  url: string;
  apiKey: string;
  clock: ManualClock;
}

function registry(): EmulatorRegistry {
  const entry = (globalThis as { [EMULATOR_REGISTRY]?: EmulatorRegistry })[EMULATOR_REGISTRY];
  if (!entry)
    throw new Error(
      'No emulator: test/browser/global-setup.ts starts it (is it the globalSetup of the browser project?)',
    );
  return entry;
}

/** Options of `mintEmbedSession`. */
export interface MintOptions {
  /** Pretend the session was minted this many milliseconds ago. */
  ageMs?: number;
}

/** Mints an embed session (4.2) and resolves with its id; rejects with the emulator's answer on failure. */
export const mintEmbedSession: BrowserCommand<[request: Record<string, unknown>, options?: MintOptions]> = async (
  _context,
  request,
  options = {},
) => {
  const { url, apiKey, context } = registry();
  const response = await fetch(`${url}/api/v1/embed/generate-session`, {
    method: 'POST',
    headers: { authorization: `Api-Key ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(request),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`generate-session answered ${response.status}: ${text}`);
  const { sessionId } = JSON.parse(text) as { sessionId: string };
  const age = options.ageMs ?? 0;
  if (age > 0) {
    const session = context.state.embedSessions.get(sessionId);
    if (!session) throw new Error(`the emulator has no session ${sessionId}`);
    session.createdAt -= age;
    session.expiresAt -= age;
  }
  return sessionId;
};

/** Options of `signDataToken`. */
export interface SignDataTokenOptions {
  /** Claims of the JWT (security context, chat identity). Default none. */
  claims?: Record<string, unknown>;
  /** Deployment whose secret signs it. Default 1. */
  deploymentId?: number;
}

/**
 * Signs a deployment JWT as a partner's server does (the deployment secret never reaches the
 * browser) and resolves with it: what a browser app sends to the data API and to chat.
 */
export const signDataToken: BrowserCommand<[options?: SignDataTokenOptions]> = async (_context, options = {}) => {
  return registry().signToken({ deploymentId: options.deploymentId ?? 1, claims: options.claims ?? {} });
};

/** The manual-clock emulators, one per test file and project. */
const clockedEmulators = new Map<string, Promise<ClockedEmulator>>();

/** The manual-clock emulator of the calling test file (started on first use). */
function clockedOf(context: { project: { name: string }; testPath: string | undefined }): Promise<ClockedEmulator> {
  const key = `${context.project.name}:${context.testPath ?? ''}`;
  let emulator = clockedEmulators.get(key);
  if (!emulator) {
    emulator = registry().startClocked();
    clockedEmulators.set(key, emulator);
  }
  return emulator;
}

/** Resolves with the `{base_url}` of the calling test file's manual-clock emulator. */
export const clockedEmulator: BrowserCommand<[]> = async (context) => (await clockedOf(context)).url;

/** Options of `mintClockedSession`. */
export interface MintClockedOptions {
  /** The viewer the partner's sign-in resolves to. Default `renewal-viewer@acme.test`. */
  externalId?: string;
}

/**
 * Mints a session on the calling file's manual-clock emulator through a session route made with
 * `createSessionHandler`, as a partner's server does, and resolves with its id.
 */
export const mintClockedSession: BrowserCommand<
  [request: Record<string, unknown>, options?: MintClockedOptions]
> = async (context, request, options = {}) => {
  const clocked = await clockedOf(context);
  const handler = createSessionHandler({
    baseUrl: clocked.url,
    apiKey: clocked.apiKey,
    deploymentId: 1,
    resolve: () => ({ externalId: options.externalId ?? 'renewal-viewer@acme.test' }),
  });
  const response = await handler(
    new Request('http://localhost/api/embed-session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
    }),
  );
  const body = (await response.json()) as { sessionId?: string };
  if (response.status !== 200 || !body.sessionId)
    throw new Error(`the session route answered ${response.status}: ${JSON.stringify(body)}`);
  return body.sessionId;
};

/** Moves the calling file's manual-clock emulator's clock forward. */
export const advanceEmulatorClock: BrowserCommand<[milliseconds: number]> = async (context, milliseconds) => {
  (await clockedOf(context)).clock.advance(milliseconds);
};

/**
 * The one frame of `page` whose address contains `urlPart`. A frame of another origin may still be
 * attaching (in Playwright's view) when a busy machine runs the command, after the page already
 * heard from it: look for up to 5 s before failing, and fail on more than one.
 */
async function findFrame(page: Page, urlPart: string): Promise<Frame> {
  let frames = page.frames().filter((candidate) => candidate.url().includes(urlPart));
  for (let waited = 0; frames.length === 0 && waited < 5_000; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    frames = page.frames().filter((candidate) => candidate.url().includes(urlPart));
  }
  if (frames.length !== 1) throw new Error(`${frames.length} frames at an address containing ${urlPart}`);
  return frames[0]!;
}

/** What {@link inspectEmbedFrame} reads from an emulator embed page. */
export interface EmbedFrameView {
  path: string;
  lang: string;
  requestedScheme: string | undefined;
  appliedScheme: string | undefined;
  timezoneText: string;
  refreshCount: string | undefined;
  heading: string;
  rows: Record<string, string | undefined>;
  primaryColor: string;
}

/**
 * Reads what the viewer sees in the emulator embed page whose address contains `urlPart` (a frame
 * of another origin, which the test page cannot script): language, colour scheme, time zone line,
 * refresh count, heading and each widget's row count.
 */
export const inspectEmbedFrame: BrowserCommand<[urlPart: string]> = async (context, urlPart) => {
  if (context.provider.name !== 'playwright') throw new Error('inspectEmbedFrame needs the playwright provider');
  const frame = await findFrame(context.page, urlPart);
  return frame.evaluate(() => {
    const root = document.documentElement;
    const probe = document.createElement('span');
    probe.className = 'svc-probe';
    document.body.append(probe);
    const primaryColor = getComputedStyle(probe).color;
    probe.remove();
    const rows: Record<string, string | undefined> = {};
    for (const widget of document.querySelectorAll<HTMLElement>('[data-widget-id]'))
      rows[widget.dataset['widgetId'] ?? ''] = widget.dataset['rows'];
    return {
      path: location.pathname,
      lang: root.lang,
      requestedScheme: root.dataset['requestedScheme'],
      appliedScheme: root.dataset['colorScheme'],
      timezoneText: document.querySelector('[data-part="timezone"]')?.textContent ?? '',
      refreshCount: document.querySelector<HTMLElement>('[data-part="refreshed"]')?.dataset['refreshCount'],
      heading: document.querySelector('h1')?.textContent?.trim() ?? '',
      rows,
      primaryColor,
    };
  });
};

/**
 * Posts `message` `count` times, `intervalMs` apart, from the window of the frame whose address
 * contains `urlPart` to its parent, with the parent's origin as target: what that embed page
 * itself would send (a flood of events, or a misbehaving page), which the test page cannot do
 * across origins.
 */
export const postFromEmbedFrame: BrowserCommand<
  [urlPart: string, message: unknown, options?: { count?: number; intervalMs?: number }]
> = async (context, urlPart, message, options = {}) => {
  if (context.provider.name !== 'playwright') throw new Error('postFromEmbedFrame needs the playwright provider');
  const frame = await findFrame(context.page, urlPart);
  await frame.evaluate(
    async ({ message, count, intervalMs }) => {
      const target = location.ancestorOrigins[0]!;
      for (let index = 0; index < count; index++) {
        if (index > 0 && intervalMs > 0) await new Promise((resolve) => setTimeout(resolve, intervalMs));
        parent.postMessage({ ...(message as object), timestamp: Date.now() }, target);
      }
    },
    { message, count: options.count ?? 1, intervalMs: options.intervalMs ?? 0 },
  );
};

/** Emulates the operating system's color scheme preference. */
export const emulateColorScheme: BrowserCommand<[scheme: 'light' | 'dark']> = async (context, scheme) => {
  if (context.provider.name !== 'playwright') throw new Error('emulateColorScheme needs the playwright provider');
  await context.page.emulateMedia({ colorScheme: scheme });
};

/** A request the browser sent while a request log was open. */
export interface LoggedRequest {
  url: string;
  method: string;
  resourceType: string;
  /** The URL of the frame that sent it. */
  frame: string;
}

/** Open request logs, by browser session (each test file has its own page). */
const requestLogs = new Map<string, { page: Page; listener: (request: Request) => void; requests: LoggedRequest[] }>();

/** Starts logging every request the test page sends (replacing a log this session left open). */
export const startRequestLog: BrowserCommand<[]> = async (context) => {
  if (context.provider.name !== 'playwright') throw new Error('startRequestLog needs the playwright provider');
  const previous = requestLogs.get(context.sessionId);
  previous?.page.off('request', previous.listener);
  const requests: LoggedRequest[] = [];
  const listener = (request: Request) => {
    let frame = '';
    try {
      frame = request.frame().url();
    } catch {
      // A service worker's request has no frame.
    }
    requests.push({ url: request.url(), method: request.method(), resourceType: request.resourceType(), frame });
  };
  context.page.on('request', listener);
  requestLogs.set(context.sessionId, { page: context.page, listener, requests });
};

/** Stops the session's request log and resolves with what it saw. */
export const stopRequestLog: BrowserCommand<[]> = async (context) => {
  const log = requestLogs.get(context.sessionId);
  if (!log) throw new Error('no request log is open: call startRequestLog first');
  log.page.off('request', log.listener);
  requestLogs.delete(context.sessionId);
  return log.requests;
};

/** Emulates the viewer's motion preference (`prefers-reduced-motion`); `null` puts the browser's back. */
export const emulateReducedMotion: BrowserCommand<[motion: 'reduce' | 'no-preference' | null]> = async (
  context,
  motion,
) => {
  if (context.provider.name !== 'playwright') throw new Error('emulateReducedMotion needs the playwright provider');
  await context.page.emulateMedia({ reducedMotion: motion });
};

/** One rule axe found broken, with the elements that break it. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core (WCAG 2 A and AA rules) inside the frame whose address contains `urlPart` (an
 * embed of another origin, which the test page cannot script) and resolves with the violations.
 * axe is evaluated through the DevTools protocol, which the page's CSP does not govern.
 */
export const auditFrameAccessibility: BrowserCommand<[urlPart: string]> = async (context, urlPart) => {
  if (context.provider.name !== 'playwright') throw new Error('auditFrameAccessibility needs the playwright provider');
  const frame = await findFrame(context.page, urlPart);
  const source = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await frame.evaluate(source);
  return frame.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run(
            context: Document,
            options: object,
          ): Promise<{
            violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
          }>;
        };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.map(String).join(' ')),
    }));
  });
};

declare module 'vitest/browser' {
  interface BrowserCommands {
    mintEmbedSession: (request: Record<string, unknown>, options?: MintOptions) => Promise<string>;
    emulateColorScheme: (scheme: 'light' | 'dark') => Promise<void>;
    emulateReducedMotion: (motion: 'reduce' | 'no-preference' | null) => Promise<void>;
    auditFrameAccessibility: (urlPart: string) => Promise<AxeViolation[]>;
    signDataToken: (options?: SignDataTokenOptions) => Promise<string>;
    clockedEmulator: () => Promise<string>;
    mintClockedSession: (request: Record<string, unknown>, options?: MintClockedOptions) => Promise<string>;
    advanceEmulatorClock: (milliseconds: number) => Promise<void>;
    inspectEmbedFrame: (urlPart: string) => Promise<EmbedFrameView>;
    startRequestLog: () => Promise<void>;
    stopRequestLog: () => Promise<LoggedRequest[]>;
    postFromEmbedFrame: (
      urlPart: string,
      message: unknown,
      options?: { count?: number; intervalMs?: number },
    ) => Promise<void>;
  }
}
