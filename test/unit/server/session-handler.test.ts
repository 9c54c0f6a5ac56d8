// @vitest-environment node
/**
 * createSessionHandler against the emulator through real sockets: the host's `resolve` decides
 * who the viewer is, the browser only hints which surface it opens, and every refusal becomes a
 * JSON error with the right status.
 */
import { describe, expect, it, vi } from 'vitest';
import { SCOPED_ADMIN_API_KEY } from '../../../src/emulator';
import {
  createServiceClient,
  createSessionHandler,
  refuseSession,
  type SessionHandlerOptions,
  type SessionResolveContext,
} from '../../../src/server';
import { useEmulator } from '../../helpers/emulator';
import { recordingFetch } from './helpers';

const emulator = useEmulator({ port: 0 });

type ResolveOption = SessionHandlerOptions['resolve'];

/** A handler on the emulator; requests to the service are recorded. */
function handlerOf(resolve: ResolveOption, options: Partial<SessionHandlerOptions> = {}) {
  const recorder = recordingFetch();
  const onError = vi.fn();
  const handler = createSessionHandler({
    baseUrl: emulator.url,
    apiKey: emulator.apiKey,
    fetch: recorder.fetch,
    deploymentId: 1,
    onError,
    resolve,
    ...options,
  } as SessionHandlerOptions);
  return { handler, seen: recorder.seen, onError };
}

function post(body?: unknown, init: RequestInit = {}): Request {
  return new Request('https://partner.example/api/embed-session', {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: 'session=ann' },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    ...init,
  });
}

/** The external user an emulator session belongs to (`embedTenant/externalId`). */
function ownerOf(sessionId: string): string | undefined {
  const session = emulator.context.state.embedSessions.get(sessionId);
  return session?.user.kind === 'external' ? session.user.userKey : undefined;
}

describe('createSessionHandler (2.7, 4.2)', () => {
  it('answers { sessionId } with Cache-Control: no-store for the viewer resolve decides', async () => {
    const { handler } = handlerOf((request) =>
      request.headers.get('cookie') === 'session=ann' ? { externalId: 'ann@partner.example', groups: ['sales'] } : null,
    );
    const response = await handler(post({ surface: 'dashboard', publicId: 'sales-overview' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as { sessionId: string };
    expect(Object.keys(body)).toEqual(['sessionId']);
    expect(body.sessionId).toMatch(/^[0-9a-f]{32}$/);
    expect(ownerOf(body.sessionId)).toBe('acme/ann@partner.example');
    expect(emulator.context.state.embedSessions.get(body.sessionId)?.deploymentId).toBe(1);
  });

  it('the browser never chooses who it is: externalId, groups, attributes and more in its body are dropped unread', async () => {
    const contexts: SessionResolveContext[] = [];
    const { handler, seen } = handlerOf((_request, context) => {
      contexts.push(context);
      return { externalId: 'ann@partner.example' };
    });
    const response = await handler(
      post({
        surface: 'app',
        deploymentId: 2,
        externalId: 'admin@partner.example',
        internalId: 'ada@acme.test',
        groups: ['executives'],
        userAttributes: [{ name: 'region', value: 'EMEA' }],
        securityContext: { tenant: 'all' },
      }),
    );
    expect(response.status).toBe(200);
    const { sessionId } = (await response.json()) as { sessionId: string };
    expect(ownerOf(sessionId)).toBe('acme/ann@partner.example');
    expect(contexts[0]!.body).toEqual({ surface: 'app', deploymentId: 2 });
    expect(JSON.parse(seen[0]!.body!)).toEqual({ deploymentId: 1, externalId: 'ann@partner.example' });
    // resolve did not take the browser's deploymentId: the handler's default applies.
    expect(emulator.context.state.embedSessions.get(sessionId)?.deploymentId).toBe(1);
  });

  it('resolve may honour the browser hint after checking it; an empty body is fine', async () => {
    const { handler } = handlerOf((_request, { body }) => ({
      externalId: 'ann',
      deploymentId: body.deploymentId === 2 ? 2 : 1,
    }));
    const response = await handler(post({ deploymentId: 2 }));
    const { sessionId } = (await response.json()) as { sessionId: string };
    expect(emulator.context.state.embedSessions.get(sessionId)?.deploymentId).toBe(2);
    const empty = await handler(post());
    expect(empty.status).toBe(200);
  });

  it('accepts a client from createServiceClient', async () => {
    const client = createServiceClient({ baseUrl: emulator.url, apiKey: emulator.apiKey });
    const handler = createSessionHandler({ client, resolve: () => ({ deploymentId: 1, externalId: 'ann' }) });
    expect((await handler(post())).status).toBe(200);
  });

  describe('refusals', () => {
    it('resolve returns null: 401 `unauthorized`, and nothing is sent', async () => {
      const { handler, seen, onError } = handlerOf(() => null);
      const response = await handler(post({ surface: 'chat' }));
      expect(response.status).toBe(401);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.json()).toMatchObject({ code: 'unauthorized' });
      expect(seen).toHaveLength(0);
      expect(onError).not.toHaveBeenCalled();
    });

    it('resolve returns a Response (refuseSession): sent as it is', async () => {
      const { handler, seen } = handlerOf((_request, { body }) =>
        body.publicId === 'internal-finance'
          ? refuseSession(403, 'Finance is not shared with you')
          : { externalId: 'ann' },
      );
      const response = await handler(post({ surface: 'dashboard', publicId: 'internal-finance' }));
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ error: 'Finance is not shared with you', code: 'forbidden' });
      expect(seen).toHaveLength(0);
    });

    it('resolve throws: 500 `internal_error`, reported, its message not shown', async () => {
      const { handler, onError } = handlerOf(() => {
        throw new Error('database is down: password=hunter2');
      });
      const response = await handler(post());
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(JSON.parse(text)).toMatchObject({ code: 'internal_error' });
      expect(text).not.toContain('hunter2');
      expect(onError).toHaveBeenCalledOnce();
    });

    it('resolve builds an invalid request: 500 `invalid_session_request`, problems only with details on, nothing sent', async () => {
      const invalid = () => ({ externalId: 'ann', internalId: 'ada@acme.test' });
      const shown = handlerOf(invalid, { exposeErrorDetails: true });
      const response = await shown.handler(post());
      expect(response.status).toBe(500);
      expect(await response.json()).toMatchObject({
        code: 'invalid_session_request',
        problems: ['externalId and internalId: give exactly one'],
      });
      expect(shown.seen).toHaveLength(0);
      expect(shown.onError).toHaveBeenCalledOnce();

      const hidden = handlerOf(invalid, { exposeErrorDetails: false });
      const quiet = (await (await hidden.handler(post())).json()) as Record<string, unknown>;
      expect(quiet).toMatchObject({ code: 'invalid_session_request' });
      expect(quiet).not.toHaveProperty('problems');
    });

    it('no deploymentId from resolve nor the handler: 500, nothing sent', async () => {
      const { handler, seen } = handlerOf(() => ({ externalId: 'ann' }), {
        deploymentId: undefined,
        exposeErrorDetails: true,
      });
      const response = await handler(post());
      expect(response.status).toBe(500);
      expect(((await response.json()) as { problems: string[] }).problems[0]).toMatch(/^deploymentId: is required/);
      expect(seen).toHaveLength(0);
    });

    it('4.2 rule 9: the service refuses a deployment outside a scoped key: 403 passed on', async () => {
      const { handler } = handlerOf(() => ({ externalId: 'ann', deploymentId: 2 }), { apiKey: SCOPED_ADMIN_API_KEY });
      const response = await handler(post());
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ code: 'forbidden' });
    });

    it('7: the service rejects the request the server built (unknown groups): 502 with the service code, detail only with details on', async () => {
      const resolve = () => ({ externalId: 'ann', groups: ['astronauts'] });
      const shown = handlerOf(resolve, { exposeErrorDetails: true });
      const response = await shown.handler(post());
      expect(response.status).toBe(502);
      expect(await response.json()).toMatchObject({
        code: 'groups_not_found',
        detail: 'Groups with names astronauts not found',
      });
      expect(shown.onError).toHaveBeenCalledOnce();
      const hidden = handlerOf(resolve, { exposeErrorDetails: false });
      const quiet = (await (await hidden.handler(post())).json()) as Record<string, unknown>;
      expect(quiet).toMatchObject({ code: 'groups_not_found' });
      expect(quiet).not.toHaveProperty('detail');
    });

    it('5 rule 3: the service refuses the server key (401): 502, never a 401 that would ask the viewer to sign in', async () => {
      const { handler } = handlerOf(() => ({ externalId: 'ann' }), { apiKey: 'svc_admin_acme_revoked_0000' });
      const response = await handler(post());
      expect(response.status).toBe(502);
      const text = await response.text();
      expect(JSON.parse(text)).toMatchObject({ code: 'unauthorized' });
      expect(text).not.toContain('svc_admin_acme_revoked_0000');
    });

    it('the service cannot be reached: 502', async () => {
      const { handler } = handlerOf(() => ({ externalId: 'ann' }), { baseUrl: 'http://127.0.0.1:9', retry: false });
      const response = await handler(post());
      expect(response.status).toBe(502);
      expect(await response.json()).toMatchObject({ code: 'connection_lost' });
    });
  });

  describe('the browser request', () => {
    it('only POST: 405 with Allow', async () => {
      const { handler } = handlerOf(() => ({ externalId: 'ann' }));
      const response = await handler(new Request('https://partner.example/api/embed-session'));
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    });

    it('a body that is not JSON, or hints of the wrong type: 400 with problems, resolve not called', async () => {
      const resolve = vi.fn(() => ({ externalId: 'ann' }));
      const { handler } = handlerOf(resolve);
      expect((await handler(post('{nope'))).status).toBe(400);
      const response = await handler(post({ surface: 'spreadsheet', publicId: '', deploymentId: 1.5 }));
      expect(response.status).toBe(400);
      const body = (await response.json()) as { problems: string[] };
      expect(body.problems).toEqual([
        expect.stringMatching(/^surface: must be one of dashboard, app, chat/),
        expect.stringMatching(/^publicId: /),
        expect.stringMatching(/^deploymentId: /),
      ]);
      expect((await handler(post([1, 2]))).status).toBe(400);
      expect(resolve).not.toHaveBeenCalled();
    });

    it('a body over 16 KiB: 413', async () => {
      const { handler } = handlerOf(() => ({ externalId: 'ann' }));
      const response = await handler(post({ surface: 'chat', padding: 'x'.repeat(20_000) }));
      expect(response.status).toBe(413);
    });
  });

  it('refuses options without resolve', () => {
    expect(() => createSessionHandler({ baseUrl: emulator.url, apiKey: 'k' } as never)).toThrow(/resolve/);
    expect(() => createSessionHandler({ baseUrl: 'http://partner.example', apiKey: 'k', resolve: () => null })).toThrow(
      /baseUrl/,
    );
  });
});
