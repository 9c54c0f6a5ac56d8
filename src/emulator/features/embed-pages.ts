/**
 * The embed pages (protocol 5 rule 8, 6; behaviour 2), on the emulator's own
 * origin, exactly where the service serves them:
 *
 * | path | surface |
 * |---|---|
 * | `/embed/dashboard/{publicId}` | published dashboard |
 * | `/embed/d/{deploymentId}/dashboard/{publicId}` | published dashboard (newer form) |
 * | `/embed/d/{deploymentId}/app` | creator-mode app |
 * | `/embed/chat`, `/embed/d/{deploymentId}/chat` | standalone chat |
 *
 * Each takes the session in `session` or `sessionId` (both everywhere, a choice of the emulator)
 * and exchanges it once, on the server, with `exchangeEmbedSession` of the sessions feature:
 * single use, within 5 minutes of minting, for a token of 24 hours. A missing, unknown, expired,
 * used or revoked session, a session of another deployment than the URL names, a dashboard that
 * does not exist or is not allowed for embedding: the page shows the error and its script posts
 * a fatal `service:event:error` (401, 403 or 404, still HTML). Otherwise the page gets the
 * surface's content and the viewer's token, and its script (`embed/page/main.ts`) mounts it and
 * posts `ready`, `view` and, on dashboards, `dashboard-loaded`.
 *
 * The session's end (our choice; the service publishes no payloads for it): the page reads the
 * emulator's clock every second (`GET /embed/_clock`, `CLOCK_PATH`), so a manual clock moves it
 * too. `SESSION_EXPIRING_LEAD_MS` (5 minutes) before its 24-hour token lapses it posts
 * `service:event:session-expiring` `{ expiresAt }` (in the browser's time), once; when it has lapsed,
 * `service:event:session-expired` `{}`, once (also when the data API refuses the token). The host
 * then sends `service:action:set-session` with a new session, which the page exchanges at
 * `POST /embed/_session` (`SET_SESSION_PATH`) exactly as a load would (single use, 5-minute window)
 * and only for the same viewer and embed tenant (from its current token, whose lifetime does not
 * matter) and the same deployment and dashboard; it swaps its tokens, keeps its state and posts
 * `ready`. A refused session is answered with `service:event:error` `{ context: 'session' }`.
 *
 * What the viewer may see is decided here, never by the URL: the session's deployment, the
 * dashboard's `allowEmbed`, and row-level security from the token's claims (the page's queries go
 * to the data API with the token). URL parameters (filters, switches, locale, time zone) are
 * read by the page script.
 *
 * Assets: `/embed/_assets/page.js` (the bundled page script, `embed/page-script.generated.ts`)
 * and `/embed/_assets/page.css`, both cacheable under their content hash.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type { Surface } from '../../core/protocol/embed';
import { resolveLocale } from '../../core/protocol/embed';
import { isRecord } from '../../core/protocol/shared';
import { signDeploymentToken, verifyDeploymentToken } from '../auth';
import type { EmulatorContext, EmulatorEnv, EmulatorFeature } from '../context';
import type {
  EmbedPageConfig,
  PageChat,
  PageDashboard,
  PageWorkbook,
  SetSessionAnswer,
  SetSessionRequest,
} from '../embed/config';
import { PAGE_CONTENT_SECURITY_POLICY, renderPage } from '../embed/html';
import { PAGE_SCRIPT } from '../embed/page-script.generated';
import { format, stringsFor, type EmbedStrings } from '../embed/strings';
import { PAGE_CSS } from '../embed/styles';
import type { DashboardRecord, EmbedSession } from '../state';
import { agentUrl, dataUrl, findDeployment, parseDeploymentId } from '../world';
import { httpError, jsonResponse, readJson } from '../http';
import {
  describeEmbedViewer,
  exchangeEmbedSession,
  type EmbedSessionExchange,
  type EmbedSessionFailureReason,
} from './sessions';

/** Path prefix of the embed pages. */
export const EMBED_PATH_PREFIX = '/embed';

function contentHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

const SCRIPT_HASH = contentHash(PAGE_SCRIPT);
const STYLES_HASH = contentHash(PAGE_CSS);

/** Address of the page script, versioned by its content. */
export const PAGE_SCRIPT_PATH = `${EMBED_PATH_PREFIX}/_assets/page.js`;
/** Address of the stylesheet, versioned by its content. */
export const PAGE_STYLES_PATH = `${EMBED_PATH_PREFIX}/_assets/page.css`;

/** Why a page cannot mount, with the status it is served with. */
interface PageFailure {
  status: 401 | 403 | 404;
  /** Key of the message in {@link EmbedStrings}. */
  key: keyof EmbedStrings;
  values?: Record<string, string | number>;
  name: string;
  context: string;
}

const SESSION_FAILURES: Record<EmbedSessionFailureReason, keyof EmbedStrings> = {
  unknown: 'unknownSession',
  expired: 'expiredSession',
  used: 'usedSession',
  revoked: 'revokedSession',
};

/** What the route names. */
interface PageTarget {
  surface: Surface;
  publicId?: string;
  /** From `/embed/d/{deploymentId}/...`; the raw path segment. */
  deploymentId?: string;
}

function pageHeaders(status: number): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': PAGE_CONTENT_SECURITY_POLICY,
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    ...(status === 401 ? { 'www-authenticate': 'Session' } : {}),
  };
}

function pageDashboard(record: DashboardRecord, fallbackTitle: string): PageDashboard {
  const config = record.config;
  return {
    publicId: record.publicId,
    title: config.title ?? fallbackTitle,
    description: config.description ?? null,
    kind: config.kind === 'APP' ? 'APP' : 'CLASSIC',
    widgets: config.widgets ?? [],
  };
}

function embeddable(record: DashboardRecord | undefined): record is DashboardRecord {
  return record !== undefined && record.status === 'published' && record.allowEmbed;
}

/**
 * What `session` may see of `target`, checked the same way for a load and for `set-session`: the
 * deployment the URL names (it must be the session's), and on dashboards the dashboard (published,
 * of the session's deployment, allowed for embedding). The dashboard as the page renders it, or
 * why not.
 */
function checkTarget(
  context: EmulatorContext,
  target: PageTarget,
  session: EmbedSession,
): { dashboard: PageDashboard | undefined } | { failure: PageFailure } {
  const notFound = (key: keyof EmbedStrings, values: PageFailure['values']) => ({
    failure: { status: 404 as const, key, values, name: 'NotFoundError', context: 'embed-load' },
  });
  const forbidden = (key: keyof EmbedStrings, values: PageFailure['values'], where = 'embed-auth') => ({
    failure: { status: 403 as const, key, values, name: 'ForbiddenError', context: where },
  });
  if (target.deploymentId !== undefined) {
    const id = parseDeploymentId(target.deploymentId);
    if (id === undefined || !findDeployment(context.world, id))
      return notFound('deploymentNotFound', { deploymentId: target.deploymentId });
    if (id !== session.deploymentId) return forbidden('wrongDeployment', { deploymentId: id });
  }
  if (target.surface !== 'dashboard') return { dashboard: undefined };
  const publicId = target.publicId ?? '';
  const record = context.state.dashboards.get(publicId);
  if (!record || record.status !== 'published') return notFound('dashboardNotFound', { publicId });
  if (record.deploymentId !== session.deploymentId)
    return forbidden('wrongDeployment', { deploymentId: record.deploymentId });
  if (!record.allowEmbed) return forbidden('dashboardNotEmbeddable', { publicId }, 'embed-load');
  return { dashboard: pageDashboard(record, context.state.workbooks.get(record.workbookId)?.name ?? publicId) };
}

/** The deployment's workbooks for the app's home; those whose dashboard may not be embedded are left out. */
function appWorkbooks(context: EmulatorContext, deploymentId: number): PageWorkbook[] {
  const { state } = context;
  const folderPath = (folderId: number | null): string[] => {
    const names: string[] = [];
    for (let id = folderId, depth = 0; id !== null && depth < 32; depth++) {
      const folder = state.folders.get(id);
      if (!folder) break;
      names.unshift(folder.name);
      id = folder.parentId;
    }
    return names;
  };
  const workbooks: PageWorkbook[] = [];
  for (const workbook of state.workbooks.values()) {
    if (workbook.deploymentId !== deploymentId || workbook.slug === null) continue;
    const record = workbook.dashboardPublicId === null ? undefined : state.dashboards.get(workbook.dashboardPublicId);
    if (record && !embeddable(record)) continue;
    workbooks.push({
      id: workbook.id,
      slug: workbook.slug,
      name: workbook.name,
      folderPath: folderPath(workbook.folderId),
      dashboard: record ? pageDashboard(record, workbook.name) : null,
    });
  }
  return workbooks.sort(
    (a, b) => a.folderPath.join('/').localeCompare(b.folderPath.join('/')) || a.name.localeCompare(b.name),
  );
}

/**
 * How the page reaches the agent of the session's deployment: its `{ai_url}` and a deployment
 * token for the viewer. The exchange token already names an external viewer (`externalId`,
 * `scope` with `chat`); an internal viewer gets a token naming them by `sub`.
 */
async function pageChat(
  context: EmulatorContext,
  exchange: Extract<EmbedSessionExchange, { ok: true }>,
): Promise<PageChat | null> {
  const { session, user } = exchange;
  const agent = context.world.agents.find((candidate) => candidate.deploymentId === session.deploymentId);
  const deployment = findDeployment(context.world, session.deploymentId);
  if (!agent || !deployment?.chatTokenAuth) return null;
  const now = context.clock.now();
  const token =
    user.kind === 'external'
      ? exchange.token
      : await signDeploymentToken(context.world, {
          deploymentId: session.deploymentId,
          claims: {
            sub: user.id,
            ...(user.email === null ? {} : { email: user.email }),
            scope: ['chat'],
            groups: user.groups,
            userAttributes: user.attributes,
          },
          expiresInSeconds: Math.max(1, Math.floor((exchange.expiresAt - now) / 1000)),
          now,
        });
  return { url: agentUrl('', agent.id, context.world.accountName), agentId: agent.id, token };
}

/** The embed pages feature. */
export const embedPagesFeature: EmulatorFeature = {
  name: 'embed-pages',
  basePath: EMBED_PATH_PREFIX,
  create(context: EmulatorContext) {
    const app = new Hono<EmulatorEnv>();

    const asset = (c: Context<EmulatorEnv>, body: string, type: string, hash: string): Response => {
      const fresh = c.req.query('v') === hash;
      return new Response(body, {
        status: 200,
        headers: {
          'content-type': type,
          'x-content-type-options': 'nosniff',
          // Versioned addresses never change content; an unversioned one must be checked.
          'cache-control': fresh ? 'public, max-age=31536000, immutable' : 'no-cache',
          etag: `"${hash}"`,
        },
      });
    };
    app.get('/_assets/page.js', (c) => asset(c, PAGE_SCRIPT, 'text/javascript; charset=utf-8', SCRIPT_HASH));
    app.get('/_assets/page.css', (c) => asset(c, PAGE_CSS, 'text/css; charset=utf-8', STYLES_HASH));

    async function servePage(c: Context<EmulatorEnv>, target: PageTarget): Promise<Response> {
      // Hono answers HEAD with the GET route: a HEAD (a link checker, a preview) must not use up
      // the single-use session.
      if (c.req.method === 'HEAD') return c.body(null, 200, pageHeaders(200));
      const localeParameter = c.req.query('locale');
      const tenantLocale = context.world.tenant.locale;
      const page = (config: EmbedPageConfig, status: number, title: string): Response =>
        c.body(
          renderPage({
            config,
            locale: localeParameter,
            scriptUrl: `${PAGE_SCRIPT_PATH}?v=${SCRIPT_HASH}`,
            stylesUrl: `${PAGE_STYLES_PATH}?v=${STYLES_HASH}`,
            title,
          }),
          status as 200,
          pageHeaders(status),
        );
      const fail = (failure: PageFailure, defaultLocale: string = tenantLocale): Response => {
        const english = format(stringsFor('en-US')[failure.key], failure.values ?? {});
        const display = format(
          stringsFor(resolveLocale(localeParameter ?? defaultLocale))[failure.key],
          failure.values ?? {},
        );
        const config: EmbedPageConfig = {
          surface: target.surface,
          error: { message: english, display, context: failure.context, name: failure.name },
          embedTenant: null,
          deploymentId: null,
          defaultLocale,
          defaultTimezone: 'UTC',
          dataUrl: '',
          token: '',
          theme: {},
          chat: null,
          showDashboardChat: false,
          viewer: { displayName: '' },
        };
        return page(config, failure.status, stringsFor(resolveLocale(localeParameter ?? defaultLocale)).errorTitle);
      };

      // Authentication first (5 rule 8): the session, exchanged once.
      const sessionId = c.req.query('session') ?? c.req.query('sessionId');
      if (sessionId === undefined || sessionId.trim() === '') {
        return fail({ status: 401, key: 'missingSession', name: 'EmbedSessionError', context: 'embed-auth' });
      }
      const exchange = await exchangeEmbedSession(context, sessionId.trim());
      if (!exchange.ok) {
        return fail({
          status: 401,
          key: SESSION_FAILURES[exchange.reason],
          name: 'EmbedSessionError',
          context: 'embed-auth',
        });
      }
      const { session, user } = exchange;
      const settings = session.settings ?? {};
      const defaultLocale = typeof settings.locale === 'string' ? settings.locale : tenantLocale;

      // Then what the session may see.
      const checked = checkTarget(context, target, session);
      if ('failure' in checked) return fail(checked.failure, defaultLocale);
      const { dashboard } = checked;

      const showDashboardChat =
        typeof settings.showDashboardChat === 'boolean'
          ? settings.showDashboardChat
          : (context.state.tenantFlags.get('showDashboardChat') ?? true);
      const config: EmbedPageConfig = {
        surface: target.surface,
        embedTenant: session.embedTenantName,
        deploymentId: session.deploymentId,
        defaultLocale,
        defaultTimezone: typeof settings.timezone === 'string' ? settings.timezone : 'UTC',
        dataUrl: dataUrl('', session.deploymentId),
        token: exchange.token,
        tokenExpiresAt: exchange.expiresAt,
        theme: session.embedTheme ?? {},
        chat: await pageChat(context, exchange),
        showDashboardChat,
        viewer: { displayName: user.displayName ?? user.email ?? user.id },
        ...(dashboard ? { dashboard } : {}),
        ...(target.surface === 'app' ? { workbooks: appWorkbooks(context, session.deploymentId) } : {}),
      };
      const strings = stringsFor(resolveLocale(localeParameter ?? defaultLocale));
      const title = dashboard?.title ?? (target.surface === 'app' ? strings.appTitle : strings.chatTitle);
      return page(config, 200, title);
    }

    app.get('/_clock', () =>
      jsonResponse(
        200,
        { now: context.clock.now() },
        { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' },
      ),
    );

    // `service:action:set-session`: the page exchanges the new session as a load would, after
    // checking that it is for the same viewer, embed tenant and page; the session is spent only
    // when every check passed. Same-origin only: the page's own script calls it (no CORS).
    app.post('/_session', async (c) => {
      const body = await readJson(c, 16 * 1024);
      const request = isRecord(body) ? (body as Partial<SetSessionRequest>) : {};
      const { sessionId, token, surface, deploymentId, publicId } = request;
      if (
        typeof sessionId !== 'string' ||
        typeof token !== 'string' ||
        (surface !== 'dashboard' && surface !== 'app' && surface !== 'chat') ||
        typeof deploymentId !== 'number'
      ) {
        throw httpError(400, 'Expected { sessionId, token, surface, deploymentId, publicId? }');
      }
      const refuse = (key: keyof EmbedStrings, values: Record<string, string | number> = {}): never => {
        throw httpError(403, format(stringsFor('en-US')[key], values), 'session_refused');
      };
      // Who the page shows: its token's claims (signature checked, lifetime not: a lapsed page renews too).
      const claims = await verifyDeploymentToken(context, deploymentId, token, true);
      const session = context.state.embedSessions.get(sessionId.trim());
      if (claims && session && session.usedAt === undefined && session.revokedAt === undefined) {
        const viewer = describeEmbedViewer(context, session);
        const same =
          viewer !== undefined &&
          session.embedTenantName === claims['embedTenant'] &&
          viewer.id === (viewer.kind === 'external' ? claims['externalId'] : claims['internalId']);
        if (!same) refuse('otherViewer');
        const target: PageTarget = { surface, deploymentId: String(deploymentId) };
        if (typeof publicId === 'string') target.publicId = publicId;
        const checked = checkTarget(context, target, session);
        if ('failure' in checked) refuse(checked.failure.key, checked.failure.values);
      } else if (!claims) refuse('otherViewer');
      const exchange = await exchangeEmbedSession(context, sessionId.trim());
      if (!exchange.ok) refuse(SESSION_FAILURES[exchange.reason]);
      const exchanged = exchange as Extract<EmbedSessionExchange, { ok: true }>;
      const answer: SetSessionAnswer = {
        token: exchanged.token,
        tokenExpiresAt: exchanged.expiresAt,
        chatToken: (await pageChat(context, exchanged))?.token ?? null,
      };
      return jsonResponse(200, answer, { 'cache-control': 'no-store' });
    });

    app.get('/dashboard/:publicId', (c) => servePage(c, { surface: 'dashboard', publicId: c.req.param('publicId') }));
    app.get('/chat', (c) => servePage(c, { surface: 'chat' }));
    app.get('/d/:deploymentId/app', (c) => servePage(c, { surface: 'app', deploymentId: c.req.param('deploymentId') }));
    app.get('/d/:deploymentId/chat', (c) =>
      servePage(c, { surface: 'chat', deploymentId: c.req.param('deploymentId') }),
    );
    app.get('/d/:deploymentId/dashboard/:publicId', (c) =>
      servePage(c, {
        surface: 'dashboard',
        deploymentId: c.req.param('deploymentId'),
        publicId: c.req.param('publicId'),
      }),
    );
    return app;
  },
};
