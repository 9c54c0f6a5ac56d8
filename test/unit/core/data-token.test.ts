// @vitest-environment node
/**
 * fetchDataToken against a real data-token route (createDataTokenHandler on a Node server): the
 * token is kept until shortly before it expires, shared by requests made meanwhile, dropped when
 * the data API refused it, and every failure is typed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_DATA_TOKEN_RENEW_BEFORE_MS, fetchDataToken } from '../../../src/core/data-token';
import {
  ConnectionLostError,
  ServiceAuthError,
  ServiceConfigError,
  ServiceError,
  ServiceHttpError,
} from '../../../src/core/errors';
import { createDataTokenHandler, toNodeHandler, type DataTokenResolution } from '../../../src/server';
import { closedPort } from '../server/helpers';

let server: Server;
let base: string;
/** What the route's `resolve` answers next, and how often it was asked. */
let next: () => DataTokenResolution;
let asked: number;
let expiresInSeconds: number;

beforeAll(async () => {
  const route = (request: Request) =>
    createDataTokenHandler({
      secret: 'a-secret-of-the-deployment',
      expiresInSeconds,
      resolve: () => {
        asked += 1;
        return next();
      },
    })(request);
  const legacy = toNodeHandler(async () => Response.json({ token: `legacy-${++asked}` }));
  const answer = (body: unknown, status = 200) => toNodeHandler(async () => Response.json(body, { status }));
  const handlers: Record<string, ReturnType<typeof toNodeHandler>> = {
    '/api/data-token': toNodeHandler(route),
    '/legacy': legacy,
    '/no-token': answer({ expires: 1 }),
    '/broken': answer({ error: 'down', code: 'internal_error' }, 502),
  };
  server = createServer((req, res) => void handlers[req.url ?? '']?.(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  asked = 0;
  expiresInSeconds = 600;
  next = () => ({ externalId: 'ann' });
});

describe('fetchDataToken', () => {
  it('keeps the token until renewBeforeMs before it expires, and shares one answer among concurrent requests', async () => {
    const token = fetchDataToken(`${base}/api/data-token`);
    const [first, second] = await Promise.all([token({ refresh: false }), token({ refresh: false })]);
    expect(first).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(second).toBe(first);
    expect(await token({ refresh: false })).toBe(first);
    expect(asked).toBe(1);
    expect(DEFAULT_DATA_TOKEN_RENEW_BEFORE_MS).toBe(30_000);

    // A token that lives less than the renewal margin is never handed out twice.
    expiresInSeconds = 20;
    const short = fetchDataToken(`${base}/api/data-token`);
    await short({ refresh: false });
    await short({ refresh: false });
    expect(asked).toBe(3);
    const margin = fetchDataToken(`${base}/api/data-token`, { renewBeforeMs: 0 });
    await margin({ refresh: false });
    await margin({ refresh: false });
    expect(asked).toBe(4);
  });

  it('asks for a new token when the data API refused the kept one ({ refresh: true })', async () => {
    const token = fetchDataToken(`${base}/api/data-token`);
    await token({ refresh: false });
    await token({ refresh: true });
    expect(asked).toBe(2);
  });

  it('asks a route that answers no expiresAt for every request', async () => {
    const token = fetchDataToken(`${base}/legacy`);
    expect(await token({ refresh: false })).toBe('legacy-1');
    expect(await token({ refresh: false })).toBe('legacy-2');
  });

  it('failures are typed: 401 a ServiceAuthError, other statuses a ServiceHttpError, no token invalid_response, no route ConnectionLostError', async () => {
    next = () => null;
    const signedOut = await Promise.resolve(fetchDataToken(`${base}/api/data-token`)({ refresh: false })).catch(
      (error: unknown) => error,
    );
    expect(ServiceAuthError.isInstance(signedOut)).toBe(true);
    expect(signedOut).toMatchObject({ status: 401 });
    const broken = await Promise.resolve(fetchDataToken(`${base}/broken`)({ refresh: false })).catch(
      (error: unknown) => error,
    );
    expect(ServiceHttpError.isInstance(broken)).toBe(true);
    expect(broken).toMatchObject({ status: 502 });
    const empty = await Promise.resolve(fetchDataToken(`${base}/no-token`)({ refresh: false })).catch(
      (error: unknown) => error,
    );
    expect(ServiceError.isInstance(empty)).toBe(true);
    expect(empty).toMatchObject({ code: 'invalid_response' });
    const port = await closedPort();
    const gone = await Promise.resolve(fetchDataToken(`http://127.0.0.1:${port}/x`)({ refresh: false })).catch(
      (error: unknown) => error,
    );
    expect(ConnectionLostError.isInstance(gone)).toBe(true);
    // After a failure the next request asks again.
    next = () => ({ externalId: 'ann' });
    const token = fetchDataToken(`${base}/api/data-token`);
    await Promise.resolve(token({ refresh: false }));
    expect(asked).toBe(2);
  });

  it('refuses options that cannot work', () => {
    expect(() => fetchDataToken('')).toThrow(ServiceConfigError);
    expect(() => fetchDataToken('/api/data-token', { renewBeforeMs: -1 })).toThrow(/renewBeforeMs/);
  });
});
