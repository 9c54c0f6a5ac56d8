// @vitest-environment node
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTHORIZATION_HEADER_NOT_SET, INVALID_TOKEN } from '../../../src/core/protocol/data';
import {
  ADMIN_API_KEY,
  PERSONAL_API_KEY,
  SCOPED_ADMIN_API_KEY,
  WORLD,
  createEmulatorApp,
  createManualClock,
  signDeploymentToken,
  type EmulatorApp,
  type EmulatorEnv,
} from '../../../src/emulator';
import { readChatCredential, requireApiKey } from '../../../src/emulator/auth';
import { useEmulator } from '../../helpers/emulator';
import { dataToken } from './helpers';

describe('behaviour 3 data API authentication', () => {
  const clock = createManualClock(Date.now());

  const emulator = useEmulator({ clock });

  const meta = (headers: Record<string, string>, dataUrl = emulator.dataUrl) =>
    fetch(`${dataUrl}/v1/meta`, { headers });

  it('3 no Authorization header: 403 {"error":"Authorization header isn\'t set"}', async () => {
    const response = await meta({});
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: AUTHORIZATION_HEADER_NOT_SET });
    const load = await fetch(`${emulator.dataUrl}/v1/load`, {
      method: 'POST',
      body: JSON.stringify({ query: { measures: ['orders.count'] } }),
    });
    expect(load.status).toBe(403);
    expect(await load.json()).toEqual({ error: "Authorization header isn't set" });
  });

  it('3 an invalid token: 403 {"error":"Invalid token"}', async () => {
    const otherDeployment = await dataToken({}, 2);
    const wrongSecret = await signDeploymentToken(
      { ...WORLD, deployments: [{ ...WORLD.deployments[0]!, jwtSecret: 'not-the-secret-of-deployment-one' }] },
      {},
    );
    for (const token of ['garbage', otherDeployment, wrongSecret, `Bearer ${wrongSecret}`]) {
      const response = await meta({ authorization: token });
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ error: INVALID_TOKEN });
    }
  });

  it('3 an expired token is invalid (the emulator clock decides)', async () => {
    const token = await signDeploymentToken(WORLD, { expiresInSeconds: 60, now: clock.now() });
    expect((await meta({ authorization: token })).status).toBe(200);
    clock.advance(61_000);
    const response = await meta({ authorization: token });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: INVALID_TOKEN });
  });

  it('3 the JWT is accepted raw or with a Bearer prefix, per deployment', async () => {
    const token = await signDeploymentToken(WORLD, { now: clock.now() });
    expect((await meta({ authorization: token })).status).toBe(200);
    expect((await meta({ authorization: `Bearer ${token}` })).status).toBe(200);
    const second = await signDeploymentToken(WORLD, { deploymentId: 2, now: clock.now() });
    expect((await meta({ authorization: second }, `${emulator.url}/data/2`)).status).toBe(200);
  });

  it('4.5 an unknown deployment answers 404 {"error"}', async () => {
    const response = await meta({ authorization: await dataToken() }, `${emulator.url}/data/9`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: expect.any(String) });
  });
});

describe('5 API key authentication (the middleware every feature uses)', () => {
  let emulator: EmulatorApp;

  beforeAll(() => {
    emulator = createEmulatorApp();
    const probe = new Hono<EmulatorEnv>();
    const deploymentOfPath = (c: { req: { param: (name: string) => string | undefined } }) =>
      Number(c.req.param('deploymentId'));
    probe.get(
      '/management/:deploymentId',
      requireApiKey(emulator.context, { scheme: 'Bearer', deploymentId: deploymentOfPath }),
      (c) => {
        const caller = c.get('caller');
        return c.json({ key: caller.kind === 'apiKey' ? caller.apiKey.key : null });
      },
    );
    probe.post(
      '/embed/:deploymentId',
      requireApiKey(emulator.context, { scheme: 'Api-Key', admin: true, deploymentId: deploymentOfPath }),
      (c) => c.json({ ok: true }),
    );
    probe.get('/boom', () => {
      throw new Error('something broke');
    });
    probe.get('/chat-credential', (c) => c.json(readChatCredential(c)));
    emulator.app.route('/probe', probe);
  });
  afterAll(async () => {
    await emulator.close();
  });

  const request = (path: string, authorization?: string, init: RequestInit = {}) =>
    emulator.app.request(path, {
      ...init,
      headers: {
        ...(authorization === undefined ? {} : { authorization }),
        ...(init.headers as Record<string, string>),
      },
    });

  it('5 rule 3: missing, malformed or unknown credentials are 401 {"error"}', async () => {
    for (const authorization of [
      undefined,
      'Basic abc',
      `Bearer`,
      `Api-Key ${ADMIN_API_KEY}`,
      'Bearer svc_unknown_key',
    ]) {
      const response = await request('/probe/management/1', authorization);
      expect(response.status, String(authorization)).toBe(401);
      expect(await response.json()).toEqual({ error: expect.any(String) });
    }
    expect((await request('/probe/embed/1', `Bearer ${ADMIN_API_KEY}`, { method: 'POST' })).status).toBe(401);
  });

  it('5 rule 2: a scoped key is 403 on another deployment; unscoped keys reach every deployment', async () => {
    expect((await request('/probe/management/1', `Bearer ${SCOPED_ADMIN_API_KEY}`)).status).toBe(200);
    const refused = await request('/probe/management/2', `Bearer ${SCOPED_ADMIN_API_KEY}`);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: expect.any(String) });
    expect((await request('/probe/management/2', `Bearer ${ADMIN_API_KEY}`)).status).toBe(200);
    expect((await request('/probe/embed/2', `Api-Key ${SCOPED_ADMIN_API_KEY}`, { method: 'POST' })).status).toBe(403);
    expect((await request('/probe/embed/2', `Api-Key ${ADMIN_API_KEY}`, { method: 'POST' })).status).toBe(200);
  });

  it('5 rule 3: a personal key is 403 on admin endpoints but valid elsewhere', async () => {
    expect((await request('/probe/embed/1', `Api-Key ${PERSONAL_API_KEY}`, { method: 'POST' })).status).toBe(403);
    expect((await request('/probe/management/1', `Bearer ${PERSONAL_API_KEY}`)).status).toBe(200);
  });

  it('5 rule 6: for chat, Authorization wins over X-Service-Auth-Token', async () => {
    const both = await request('/probe/chat-credential', `Api-Key ${ADMIN_API_KEY}`, {
      headers: { 'x-service-auth-token': 'jwt' },
    });
    expect(await both.json()).toEqual({ kind: 'apiKey', key: ADMIN_API_KEY });
    const tokenOnly = await request('/probe/chat-credential', undefined, {
      headers: { 'x-service-auth-token': 'jwt' },
    });
    expect(await tokenOnly.json()).toEqual({ kind: 'token', token: 'jwt' });
    expect(await (await request('/probe/chat-credential')).json()).toEqual({ kind: 'missing' });
  });

  it('an unexpected failure is a 500 {"error"} that hides its own text; an unknown path a 404 {"error"}', async () => {
    const boom = await request('/probe/boom');
    expect(boom.status).toBe(500);
    expect(await boom.json()).toEqual({ error: 'Internal server error' });
    const missing = await request('/nowhere');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: expect.stringContaining('/nowhere') });
  });
});
