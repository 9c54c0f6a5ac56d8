import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildEmbedUrl,
  buildFilterUrlParameter,
  tenantOrigin,
  type BuildEmbedUrlOptions,
} from '../../../src/core/embed-url';
import { ServiceConfigError } from '../../../src/core/errors';
import { createEmbedAction, isEmbedAction, isFilterUrlParameter } from '../../../src/core/protocol/embed';

const TENANT = 'https://acme.service.example';
const SESSION = '0123456789abcdef0123456789abcdef';

function dashboard(extra: Partial<Extract<BuildEmbedUrlOptions, { surface: 'dashboard' }>> = {}): string {
  return buildEmbedUrl({ surface: 'dashboard', tenantUrl: TENANT, sessionId: SESSION, publicId: 'a1b2c3d4', ...extra });
}

/** Query parameters of a URL, in order, decoded with decodeURIComponent (no `+` for spaces). */
function parameters(url: string): [string, string][] {
  const query = new URL(url).search.slice(1);
  return query.split('&').map((pair) => {
    const [name = '', value = ''] = pair.split('=');
    return [decodeURIComponent(name), decodeURIComponent(value)];
  });
}

function configError(run: () => unknown): ServiceConfigError {
  try {
    run();
  } catch (error) {
    expect(ServiceConfigError.isInstance(error)).toBe(true);
    expect((error as ServiceConfigError).code).toBe('invalid_options');
    return error as ServiceConfigError;
  }
  throw new Error('expected a ServiceConfigError');
}

describe('buildEmbedUrl: surfaces (behaviour 2)', () => {
  it('behaviour 2 dashboard: /embed/dashboard/{publicId}?session={sessionId}', () => {
    expect(dashboard()).toBe(`${TENANT}/embed/dashboard/a1b2c3d4?session=${SESSION}`);
  });

  it('behaviour 2 app: /embed/d/{deploymentId}/app?session={sessionId}', () => {
    expect(buildEmbedUrl({ surface: 'app', tenantUrl: TENANT, sessionId: SESSION, deploymentId: 42 })).toBe(
      `${TENANT}/embed/d/42/app?session=${SESSION}`,
    );
  });

  it('behaviour 2 chat: /embed/chat?sessionId={sessionId} (note sessionId)', () => {
    expect(buildEmbedUrl({ surface: 'chat', tenantUrl: TENANT, sessionId: SESSION })).toBe(
      `${TENANT}/embed/chat?sessionId=${SESSION}`,
    );
  });

  it('keeps a base path of the tenant URL, with or without its trailing slash', () => {
    for (const tenantUrl of ['https://host.example/analytics', 'https://host.example/analytics/']) {
      expect(buildEmbedUrl({ surface: 'chat', tenantUrl, sessionId: 's' })).toBe(
        'https://host.example/analytics/embed/chat?sessionId=s',
      );
    }
  });

  it('encodes the publicId as one path segment and percent-encodes the session', () => {
    expect(dashboard({ publicId: 'a/b?c' })).toBe(`${TENANT}/embed/dashboard/a%2Fb%3Fc?session=${SESSION}`);
    expect(dashboard({ sessionId: 'a&b=c' })).toBe(`${TENANT}/embed/dashboard/a1b2c3d4?session=a%26b%3Dc`);
  });

  it('rejects a missing publicId, deploymentId that is not a positive integer, and an empty session', () => {
    for (const publicId of ['', '  ', '.', '..', undefined]) {
      expect(configError(() => dashboard({ publicId: publicId as string })).message).toMatch(/publicId/);
    }
    for (const deploymentId of [0, -1, 1.5, Number.NaN, '42', undefined]) {
      const error = configError(() =>
        buildEmbedUrl({ surface: 'app', tenantUrl: TENANT, sessionId: SESSION, deploymentId: deploymentId as number }),
      );
      expect(error.message).toMatch(/deploymentId: expected a positive integer/);
    }
    for (const sessionId of ['', ' ', undefined]) {
      expect(configError(() => dashboard({ sessionId: sessionId as string })).message).toMatch(
        /sessionId: .*new session per iframe load/,
      );
    }
    expect(configError(() => buildEmbedUrl({ surface: 'page' } as never)).message).toMatch(/tenantUrl/);
    expect(
      configError(() => buildEmbedUrl({ surface: 'page', tenantUrl: TENANT, sessionId: 's' } as never)).message,
    ).toMatch(/surface: expected "dashboard" or "app" or "chat"/);
  });

  it('reports every problem at once', () => {
    const error = configError(() => dashboard({ publicId: '', sessionId: '', locale: 'nope nope' }));
    expect(error.message).toMatch(/sessionId/);
    expect(error.message).toMatch(/publicId/);
    expect(error.message).toMatch(/locale/);
  });
});

describe('buildEmbedUrl: tenant origin (5 rule 1, 6.1)', () => {
  it('5 rule 1: https tenants are accepted; the origin drops any path', () => {
    expect(tenantOrigin('https://acme.service.example')).toBe('https://acme.service.example');
    expect(tenantOrigin('https://acme.service.example:8443/base/')).toBe('https://acme.service.example:8443');
  });

  it('5 rule 1: http only on loopback (localhost, 127.0.0.0/8, [::1]), for the emulator', () => {
    for (const url of [
      'http://localhost:4000',
      'http://127.0.0.1:4000',
      'http://127.10.20.30',
      'http://[::1]:8080',
      'http://127.1',
    ]) {
      expect(tenantOrigin(url)).toBe(new URL(url).origin);
    }
    for (const url of [
      'http://acme.service.example',
      'http://10.0.0.1',
      'http://128.0.0.1',
      'http://localhost.evil.example',
      'http://[::2]',
    ]) {
      expect(configError(() => tenantOrigin(url)).message).toMatch(/must use https/);
    }
  });

  it('rejects what is not an absolute https URL, and URLs carrying credentials, a query or a fragment', () => {
    expect(configError(() => tenantOrigin('acme.service.example')).message).toMatch(/not an absolute URL.*https:\/\//);
    expect(configError(() => tenantOrigin('ftp://acme.service.example')).message).toMatch(/https/);
    expect(configError(() => tenantOrigin('javascript:alert(1)')).message).toMatch(/https/);
    for (const url of [
      'https://user:pw@acme.service.example',
      'https://acme.service.example/?x=1',
      'https://acme.service.example/#top',
    ]) {
      expect(configError(() => tenantOrigin(url)).message).toMatch(/no credentials, query or fragment/);
    }
    expect(
      configError(() => buildEmbedUrl({ surface: 'chat', tenantUrl: 'http://acme.example', sessionId: 's' })).message,
    ).toMatch(/https/);
  });
});

describe('buildEmbedUrl: parameters (behaviour 2)', () => {
  it('behaviour 2 filters: a plain value becomes f_<view>.<dimension>={"value":...}, percent-encoded', () => {
    const url = dashboard({ filters: { 'orders.status': 'completed' } });
    expect(url).toBe(
      `${TENANT}/embed/dashboard/a1b2c3d4?session=${SESSION}&f_orders.status=%7B%22value%22%3A%22completed%22%7D`,
    );
    expect(new URL(url).searchParams.get('f_orders.status')).toBe('{"value":"completed"}');
  });

  it('behaviour 2 filters: lists, numbers, booleans, conditions with an operator, and the list form', () => {
    const url = dashboard({
      filters: {
        'orders.city': ['Oslo', 'Bergen'],
        'orders.amount': { value: 100, operator: 'gt' },
        'orders.paid': true,
        'orders.note': { operator: 'set' },
        'orders.skipped': undefined,
        'orders.cleared': null,
      },
    });
    expect(parameters(url).slice(1)).toEqual([
      ['f_orders.city', '{"value":["Oslo","Bergen"]}'],
      ['f_orders.amount', '{"value":100,"operator":"gt"}'],
      ['f_orders.paid', '{"value":true}'],
      ['f_orders.note', '{"operator":"set"}'],
    ]);
    const listed = dashboard({
      filters: [
        { member: 'orders.status', value: 'completed' },
        { member: 'orders.n', value: [1, 2], operator: 'equals' },
      ],
    });
    expect(parameters(listed).slice(1)).toEqual([
      ['f_orders.status', '{"value":"completed"}'],
      ['f_orders.n', '{"value":[1,2],"operator":"equals"}'],
    ]);
  });

  it('behaviour 2 filters: JSON is percent-encoded, spaces as %20 (never +), whatever the text', () => {
    expect(dashboard({ filters: { 'orders.city': 'New York' } })).toContain('%22New%20York%22');
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('a+b', '100%', 'x&y=z', '#frag', '"q"')),
        (value) => {
          const url = dashboard({ filters: { 'orders.status': value } });
          expect(url).not.toMatch(/[ "{}+#]/);
          const fromSearchParams = new URL(url).searchParams.get('f_orders.status');
          expect(JSON.parse(fromSearchParams ?? '')).toEqual({ value });
          const decoded = parameters(url).find(([name]) => name === 'f_orders.status')?.[1];
          expect(JSON.parse(decoded ?? '')).toEqual({ value });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('behaviour 2 filters: malformed members and values are ServiceConfigErrors saying how to fix them', () => {
    expect(configError(() => dashboard({ filters: { status: 'x' } })).message).toMatch(
      /"status" is not a member: write it as "<view>.<dimension>"/,
    );
    expect(configError(() => dashboard({ filters: { 'orders.n': Number.NaN } })).message).toMatch(
      /"orders.n" needs a value/,
    );
    expect(configError(() => dashboard({ filters: { 'orders.n': { value: { a: 1 } } as never } })).message).toMatch(
      /needs a value/,
    );
    expect(configError(() => dashboard({ filters: { 'orders.n': {} } })).message).toMatch(/needs a value/);
    expect(
      configError(() => dashboard({ filters: { 'orders.n': { value: 1, operator: 5 } as never } })).message,
    ).toMatch(/needs a value/);
    expect(
      configError(() =>
        dashboard({
          filters: [
            { member: 'orders.a', value: 1 },
            { member: 'orders.a', value: 2 },
          ],
        }),
      ).message,
    ).toMatch(/given twice/);
    expect(configError(() => dashboard({ filters: 'f_orders.a=1' as never })).message).toMatch(
      /filters must be an object/,
    );
  });

  it('behaviour 2 time grains: tg_<view>.<dimension>=<granularity>', () => {
    const url = dashboard({
      timeGrains: { 'orders.created_at': 'month', 'orders.shipped_at': undefined, 'orders.fiscal': 'fiscal_quarter' },
    });
    expect(parameters(url).slice(1)).toEqual([
      ['tg_orders.created_at', 'month'],
      ['tg_orders.fiscal', 'fiscal_quarter'],
    ]);
    expect(configError(() => dashboard({ timeGrains: { created_at: 'month' } })).message).toMatch(
      /timeGrains: "created_at"/,
    );
    expect(configError(() => dashboard({ timeGrains: { 'orders.created_at': 'a month' } })).message).toMatch(
      /granularity/,
    );
  });

  it('behaviour 2 allowExport: only the literal true is sent', () => {
    expect(dashboard({ allowExport: true })).toMatch(/&allowExport=true$/);
    expect(dashboard({ allowExport: false })).not.toMatch(/allowExport/);
    expect(dashboard({ allowExport: 'true' as never })).not.toMatch(/allowExport/);
    expect(
      buildEmbedUrl({ surface: 'app', tenantUrl: TENANT, sessionId: 's', deploymentId: 1, allowExport: true }),
    ).toMatch(/allowExport=true/);
  });

  it('behaviour 2 show...=false switches: only the literal false is sent', () => {
    const url = dashboard({
      switches: {
        showDashboardHeader: false,
        showDashboardTitle: true,
        showDashboardExportMenu: undefined,
        showSomethingNew: false,
      },
    });
    expect(parameters(url).slice(1)).toEqual([
      ['showDashboardHeader', 'false'],
      ['showSomethingNew', 'false'],
    ]);
    const chat = buildEmbedUrl({
      surface: 'chat',
      tenantUrl: TENANT,
      sessionId: 's',
      switches: { showNewChat: false, showChatInput: false, showChatHistory: false },
    });
    expect(chat).toBe(`${TENANT}/embed/chat?sessionId=s&showNewChat=false&showChatInput=false&showChatHistory=false`);
    expect(configError(() => dashboard({ switches: { hideHeader: false } as never })).message).toMatch(
      /"hideHeader" is not a show... switch/,
    );
    expect(configError(() => dashboard({ switches: { showDashboardHeader: 'false' as never } })).message).toMatch(
      /true or false/,
    );
  });

  it('behaviour 2 locale and timezone: a BCP-47 tag and an IANA zone', () => {
    expect(parameters(dashboard({ locale: 'es-AR', timezone: 'America/Argentina/Buenos_Aires' })).slice(1)).toEqual([
      ['locale', 'es-AR'],
      ['timezone', 'America/Argentina/Buenos_Aires'],
    ]);
    expect(configError(() => dashboard({ locale: 'Spanish' })).message).toMatch(/locale: expected a BCP-47 tag/);
    expect(configError(() => dashboard({ timezone: 'Mars/Base' })).message).toMatch(
      /timezone: expected an IANA time zone/,
    );
  });

  it('writes parameters in a stable order: session, filters, time grains, allowExport, switches, locale, timezone', () => {
    const url = buildEmbedUrl({
      surface: 'app',
      tenantUrl: TENANT,
      sessionId: 's',
      deploymentId: 7,
      timezone: 'UTC',
      locale: 'de',
      switches: { showDashboardTitle: false },
      allowExport: true,
      timeGrains: { 'a.t': 'day' },
      filters: { 'a.b': 1 },
    });
    expect(parameters(url).map(([name]) => name)).toEqual([
      'session',
      'f_a.b',
      'tg_a.t',
      'allowExport',
      'showDashboardTitle',
      'locale',
      'timezone',
    ]);
  });
});

describe('buildFilterUrlParameter (6.3 set-filter)', () => {
  it('6.3 set-filter: writes the same f_ parameters as the URL, a valid filterUrlParameter', () => {
    const filters = { 'orders.status': 'completed', 'orders.city': ['New York', 'Oslo'] };
    const parameter = buildFilterUrlParameter(filters);
    expect(parameter).toBe(new URL(dashboard({ filters })).search.slice(1).split('&').slice(1).join('&'));
    expect(isFilterUrlParameter(parameter)).toBe(true);
    expect(
      isEmbedAction(
        createEmbedAction({ type: 'service:action:set-filter', payload: { filterUrlParameter: parameter } }),
      ),
    ).toBe(true);
  });

  it('returns an empty string when no filter is set, and throws ServiceConfigError on malformed filters', () => {
    expect(buildFilterUrlParameter({ 'orders.status': undefined })).toBe('');
    expect(configError(() => buildFilterUrlParameter({ nodot: 1 })).message).toMatch(
      /^buildFilterUrlParameter: filters: "nodot"/,
    );
  });
});
