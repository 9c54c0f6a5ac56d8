// @vitest-environment node
/**
 * createDataTokenHandler and createDataToken: tokens a JWT library verifies with the deployment's
 * secret, that the emulator's data API takes (row-level security from the claims), and the
 * refusals of the session route (cross-site, method, media type), 401 for nobody signed in.
 */
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDataClient } from '../../../src/core/data-client';
import { ServiceAuthError, ServiceConfigError, ServiceValidationError } from '../../../src/core/errors';
import { startEmulator, type RunningEmulator } from '../../../src/emulator';
import {
  DEFAULT_DATA_TOKEN_EXPIRES_IN_SECONDS,
  MAX_DATA_TOKEN_EXPIRES_IN_SECONDS,
  createDataToken,
  createDataTokenHandler,
  type DataTokenHandlerOptions,
} from '../../../src/server';

let emulator: RunningEmulator;
let secret: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  secret = emulator.world.deployments[0]!.jwtSecret;
});

afterAll(async () => {
  await emulator.close();
});

const ROUTE = 'https://partner.example/api/data-token';

function get(headers: Record<string, string> = {}, init: RequestInit = {}): Request {
  return new Request(ROUTE, { headers: { cookie: 'session=ann', ...headers }, ...init });
}

function handlerOf(options: Partial<DataTokenHandlerOptions> = {}) {
  const onError = vi.fn();
  const handler = createDataTokenHandler({
    secret,
    resolve: () => ({ externalId: 'ann@partner.example', userAttributes: { region: 'EMEA' } }),
    onError,
    ...options,
  });
  return { handler, onError };
}

async function answerOf(response: Response): Promise<{ status: number; body: Record<string, unknown>; text: string }> {
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Record<string, unknown>, text };
}

describe('createDataTokenHandler', () => {
  it('answers { token, expiresAt } with no-store: an HS256 JWT of the claims, signed with the secret', async () => {
    const { handler } = handlerOf({ expiresInSeconds: 120 });
    const before = Date.now();
    const response = await handler(get());
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const { status, body, text } = await answerOf(response);
    expect(status).toBe(200);
    expect(text).not.toContain(secret);
    const token = body['token'] as string;
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), { algorithms: ['HS256'] });
    expect(payload).toMatchObject({ externalId: 'ann@partner.example', userAttributes: { region: 'EMEA' } });
    expect(payload.exp! - payload.iat!).toBe(120);
    expect(body['expiresAt']).toBe(payload.exp! * 1000);
    expect(body['expiresAt']).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 120_000);
    // Another secret does not verify it.
    await expect(jwtVerify(token, new TextEncoder().encode(`${secret}x`))).rejects.toThrow();
  });

  it('the token is one the data API takes, and its claims are the row-level security', async () => {
    const { handler } = handlerOf();
    const { body } = await answerOf(await handler(get()));
    const data = createDataClient({ url: emulator.dataUrl, token: body['token'] as string });
    const result = await data.load({ measures: ['orders.count'], dimensions: ['orders.region'] });
    expect(result.data.map((row) => row['orders.region'])).toEqual(['EMEA']);
    // A token signed with another secret is refused.
    const forged = await createDataToken({ secret: 'not-the-secret', claims: {} });
    const refused = await createDataClient({ url: emulator.dataUrl, token: forged.token })
      .load({ measures: ['orders.count'] })
      .catch((error: unknown) => error);
    expect(ServiceAuthError.isInstance(refused)).toBe(true);
  });

  it('lives DEFAULT_DATA_TOKEN_EXPIRES_IN_SECONDS (10 minutes) by default', async () => {
    const { handler } = handlerOf();
    const { body } = await answerOf(await handler(get()));
    const { payload } = await jwtVerify(body['token'] as string, new TextEncoder().encode(secret));
    expect(DEFAULT_DATA_TOKEN_EXPIRES_IN_SECONDS).toBe(600);
    expect(payload.exp! - payload.iat!).toBe(600);
  });

  it('resolve gets the request; null answers 401 unauthorized; a Response is passed on with no-store', async () => {
    const resolve = vi.fn((request: Request) =>
      request.headers.get('cookie') === 'session=ann'
        ? { externalId: 'ann' }
        : request.headers.get('cookie') === 'session=banned'
          ? Response.json({ error: 'Not for you', code: 'forbidden' }, { status: 403 })
          : null,
    );
    const { handler } = handlerOf({ resolve });
    expect((await handler(get())).status).toBe(200);
    expect(resolve).toHaveBeenCalledTimes(1);
    expect(resolve.mock.calls[0]![0]).toBeInstanceOf(Request);
    const nobody = await handler(get({ cookie: '' }));
    expect(await answerOf(nobody)).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
    expect(nobody.headers.get('cache-control')).toBe('no-store');
    const banned = await handler(get({ cookie: 'session=banned' }));
    expect(await answerOf(banned)).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    expect(banned.headers.get('cache-control')).toBe('no-store');
  });

  it('a throwing resolve answers 500 internal_error and is reported; claims that are not JSON answer 500 invalid_claims', async () => {
    const thrown = handlerOf({
      resolve: () => {
        throw new Error('auth store down');
      },
    });
    expect(await answerOf(await thrown.handler(get()))).toMatchObject({
      status: 500,
      body: { code: 'internal_error' },
    });
    expect(thrown.onError).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'auth store down' }),
      expect.any(Request),
    );

    const bigint = handlerOf({ resolve: () => ({ externalId: 'ann', big: 1n }) });
    const answer = await answerOf(await bigint.handler(get()));
    expect(answer).toMatchObject({ status: 500, body: { code: 'invalid_claims' } });
    expect(bigint.onError).toHaveBeenCalledTimes(1);

    const notAnObject = handlerOf({ resolve: () => 'ann' as never });
    expect(await answerOf(await notAnObject.handler(get()))).toMatchObject({
      status: 500,
      body: { code: 'invalid_claims' },
    });
  });

  it('refuses cross-site requests like the session route, unless the origin is allowed', async () => {
    const resolve = vi.fn(() => ({ externalId: 'ann' }));
    const { handler } = handlerOf({ resolve });
    const crossSite = await handler(get({ 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }));
    expect(await answerOf(crossSite)).toMatchObject({ status: 403, body: { code: 'cross_site_request' } });
    const foreignOrigin = await handler(get({ origin: 'https://evil.example' }));
    expect(foreignOrigin.status).toBe(403);
    expect(resolve).not.toHaveBeenCalled();
    // The page's own origin, and a request without Origin (a server, a script), pass.
    expect((await handler(get({ origin: 'https://partner.example', 'sec-fetch-site': 'same-origin' }))).status).toBe(
      200,
    );
    expect((await handler(get())).status).toBe(200);
    const allowing = handlerOf({ allowedOrigins: ['https://admin.partner.example'] }).handler;
    expect(
      (await allowing(get({ origin: 'https://admin.partner.example', 'sec-fetch-site': 'same-site' }))).status,
    ).toBe(200);
  });

  it('answers GET and a JSON POST; other methods 405, a POST of another media type 415', async () => {
    const { handler } = handlerOf();
    const put = await handler(get({}, { method: 'PUT' }));
    expect(await answerOf(put)).toMatchObject({ status: 405, body: { code: 'method_not_allowed' } });
    expect(put.headers.get('allow')).toBe('GET, POST');
    const form = await handler(
      get({ 'content-type': 'application/x-www-form-urlencoded' }, { method: 'POST', body: 'a=1' }),
    );
    expect(await answerOf(form)).toMatchObject({ status: 415, body: { code: 'unsupported_media_type' } });
    const json = await handler(get({ 'content-type': 'application/json' }, { method: 'POST', body: '{}' }));
    expect(json.status).toBe(200);
  });

  it('refuses options that cannot work when it is created', () => {
    const resolve = () => null;
    expect(() => createDataTokenHandler({ secret: '', resolve })).toThrow(ServiceConfigError);
    expect(() => createDataTokenHandler({ secret, resolve: undefined as never })).toThrow(/resolve/);
    expect(() => createDataTokenHandler({ secret, resolve, expiresInSeconds: 0 })).toThrow(/expiresInSeconds/);
    expect(() =>
      createDataTokenHandler({ secret, resolve, expiresInSeconds: MAX_DATA_TOKEN_EXPIRES_IN_SECONDS + 1 }),
    ).toThrow(/expiresInSeconds/);
    expect(() => createDataTokenHandler({ secret, resolve, allowedOrigins: ['not an origin'] })).toThrow(
      ServiceConfigError,
    );
  });
});

describe('createDataToken', () => {
  it('signs the claims for server code (a server component prefetching as the viewer)', async () => {
    const now = Date.now();
    const { token, expiresAt } = await createDataToken({
      secret,
      claims: { externalId: 'ann' },
      expiresInSeconds: 60,
      now,
    });
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), { currentDate: new Date(now) });
    expect(payload).toMatchObject({ externalId: 'ann', iat: Math.floor(now / 1000), exp: Math.floor(now / 1000) + 60 });
    expect(expiresAt).toBe((Math.floor(now / 1000) + 60) * 1000);
    // A secret as bytes signs the same.
    const bytes = await createDataToken({
      secret: new TextEncoder().encode(secret),
      claims: { externalId: 'ann' },
      now,
    });
    await expect(
      jwtVerify(bytes.token, new TextEncoder().encode(secret), { currentDate: new Date(now) }),
    ).resolves.toBeTruthy();
  });

  it('sets iat and exp itself, over claims of the same name', async () => {
    const now = Date.now();
    const { token } = await createDataToken({ secret, claims: { exp: 1, iat: 1 }, now });
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), { currentDate: new Date(now) });
    expect(payload.iat).toBe(Math.floor(now / 1000));
  });

  it('refuses claims that are not a JSON object', async () => {
    await expect(createDataToken({ secret, claims: null as never })).rejects.toBeInstanceOf(ServiceValidationError);
    await expect(createDataToken({ secret, claims: { big: 1n } })).rejects.toBeInstanceOf(ServiceValidationError);
    await expect(createDataToken({ secret: '', claims: {} })).rejects.toBeInstanceOf(ServiceConfigError);
  });
});
