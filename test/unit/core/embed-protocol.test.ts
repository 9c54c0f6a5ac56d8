import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  DEFAULT_LOCALE,
  EMBED_ACTION_TYPES,
  EMBED_EVENT_TYPES,
  EMBED_SOURCE,
  SUPPORTED_LOCALES,
  createEmbedAction,
  createEmbedEvent,
  isEmbedAction,
  isEmbedEvent,
  isEmbedEventType,
  isFilterUrlParameter,
  isLocaleTag,
  isMemberName,
  isTimeZone,
  parseEmbedAction,
  parseEmbedEvent,
  resolveLocale,
  type AnyEmbedEvent,
  type EmbedAction,
  type EmbedEvent,
  type EmbedEventType,
  type ReadyPayload,
  type UnknownEmbedEvent,
} from '../../../src/core/protocol/embed';

const T = 1_767_225_600_000;

/** A raw event message as it would arrive from an embed. */
function event(type: string, payload: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { source: 'service-embed', direction: 'event', type, payload, timestamp: T, surface: 'dashboard', ...extra };
}

/** A raw action message as a host would post it. */
function action(type: string, payload: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { source: 'service-embed', direction: 'action', type, payload, timestamp: T, ...extra };
}

/** A valid minimal payload per event type, and the doc example where behaviour 2 gives one. */
const validEventPayloads: Record<EmbedEventType, unknown[]> = {
  'service:event:ready': [
    { embedTenant: 'acme', deploymentId: 42, mode: 'signed', surface: 'dashboard', publicId: 'a1b2c3d4' },
    { embedTenant: null, deploymentId: null, mode: 'private', surface: 'chat' },
  ],
  'service:event:view': [
    { surface: 'app', path: '/workbooks/1' },
    { surface: 'dashboard', path: '/', publicId: 'p', title: 'Sales' },
  ],
  'service:event:navigate': [{ path: '/b' }, { path: '/b', previousPath: '/a' }],
  'service:event:dashboard-loaded': [{}, { publicId: 'a1b2c3d4', widgetCount: 6, loadDurationMs: 812.5 }],
  'service:event:download': [
    { format: 'csv', target: 'widget', widgetId: '37', title: 'Revenue by month', rowCount: 128 },
    { format: 'png', target: 'dashboard' },
    { format: 'xlsx', target: 'widget' },
    { format: 'pdf', target: 'dashboard' },
  ],
  'service:event:drilldown': [
    { member: 'orders.count', value: 'completed', widgetId: '37' },
    { member: 'orders.count' },
    { member: 'orders.count', value: { nested: [1, null] } },
  ],
  'service:event:ai-query': [
    { query: 'revenue by month', status: 'submitted' },
    { query: 'q', status: 'completed', chatId: 'c1', agentId: '3' },
    { query: 'q', status: 'error' },
  ],
  'service:event:error': [
    { message: 'Failed to load data', context: 'embed-render', fatal: true },
    { message: 'x', name: 'TypeError' },
  ],
  'service:event:session-expiring': [{}, { expiresAt: T + 300_000 }],
};

/** Payloads that break exactly one rule of 6.2, with the path the problem must name. */
const invalidEventPayloads: [EmbedEventType, unknown, string][] = [
  [
    'service:event:ready',
    { embedTenant: 'acme', deploymentId: 42, mode: 'public', surface: 'dashboard' },
    'payload.mode',
  ],
  [
    'service:event:ready',
    { embedTenant: 'acme', deploymentId: '42', mode: 'signed', surface: 'dashboard' },
    'payload.deploymentId',
  ],
  ['service:event:ready', { deploymentId: 42, mode: 'signed', surface: 'dashboard' }, 'payload.embedTenant'],
  [
    'service:event:ready',
    { embedTenant: 7, deploymentId: 42, mode: 'signed', surface: 'dashboard' },
    'payload.embedTenant',
  ],
  [
    'service:event:ready',
    { embedTenant: null, deploymentId: null, mode: 'signed', surface: 'page' },
    'payload.surface',
  ],
  ['service:event:ready', { embedTenant: null, deploymentId: null, mode: 'signed' }, 'payload.surface'],
  [
    'service:event:ready',
    { embedTenant: null, deploymentId: null, mode: 'signed', surface: 'app', publicId: 1 },
    'payload.publicId',
  ],
  ['service:event:view', { surface: 'app' }, 'payload.path'],
  ['service:event:view', { surface: 'app', path: '/', title: null }, 'payload.title'],
  ['service:event:navigate', { previousPath: '/a' }, 'payload.path'],
  ['service:event:navigate', { path: '/b', previousPath: 3 }, 'payload.previousPath'],
  ['service:event:dashboard-loaded', { widgetCount: '6' }, 'payload.widgetCount'],
  ['service:event:dashboard-loaded', { loadDurationMs: Number.NaN }, 'payload.loadDurationMs'],
  ['service:event:download', { format: 'docx', target: 'widget' }, 'payload.format'],
  ['service:event:download', { format: 'csv', target: 'page' }, 'payload.target'],
  ['service:event:download', { format: 'csv', target: 'widget', rowCount: '128' }, 'payload.rowCount'],
  ['service:event:drilldown', { value: 1 }, 'payload.member'],
  ['service:event:drilldown', { member: 'orders.count', widgetId: 37 }, 'payload.widgetId'],
  ['service:event:ai-query', { query: 'q', status: 'running' }, 'payload.status'],
  ['service:event:ai-query', { status: 'submitted' }, 'payload.query'],
  ['service:event:error', { name: 'x' }, 'payload.message'],
  ['service:event:error', { message: 'x', fatal: 'yes' }, 'payload.fatal'],
  ['service:event:session-expiring', { expiresAt: '2026-01-01' }, 'payload.expiresAt'],
  ['service:event:session-expiring', { expiresAt: Number.POSITIVE_INFINITY }, 'payload.expiresAt'],
];

describe('embed protocol: envelope (6.1)', () => {
  it('6.1 envelope: createEmbedEvent stamps source, direction event, surface and timestamp', () => {
    const before = Date.now();
    const built = createEmbedEvent({ surface: 'app', type: 'service:event:navigate', payload: { path: '/x' } });
    expect(built).toEqual({
      source: EMBED_SOURCE,
      direction: 'event',
      type: 'service:event:navigate',
      payload: { path: '/x' },
      timestamp: expect.any(Number),
      surface: 'app',
    });
    expect(built.timestamp).toBeGreaterThanOrEqual(before);
    expect(createEmbedEvent({ surface: 'chat', type: 'service:event:dashboard-loaded', timestamp: 5 })).toMatchObject({
      payload: {},
      timestamp: 5,
    });
  });

  it('6.1 envelope: createEmbedAction stamps source, direction action and timestamp, never surface', () => {
    const built = createEmbedAction({ type: 'service:action:refresh' });
    expect(built).toEqual({
      source: EMBED_SOURCE,
      direction: 'action',
      type: 'service:action:refresh',
      payload: {},
      timestamp: expect.any(Number),
    });
    expect('surface' in built).toBe(false);
    expect(
      createEmbedAction({ type: 'service:action:navigate', payload: { path: '/a' }, timestamp: 9 }).timestamp,
    ).toBe(9);
  });

  it('6.1 source is checked first: a message of another library fails with that one reason', () => {
    for (const value of [
      { source: 'other-lib', direction: 'sideways', payload: 1 },
      { type: 'service:event:ready' },
      null,
      'service-embed',
      ['service-embed'],
      42,
    ]) {
      const result = parseEmbedEvent(value);
      expect(result.kind).toBe('invalid');
      if (result.kind === 'invalid') {
        expect(result.problems).toHaveLength(1);
        expect(result.problems[0]).toMatch(/^source:/);
      }
    }
  });

  it('6.1 direction: events must say "event" and actions "action"', () => {
    const readyPayload = validEventPayloads['service:event:ready'][0];
    expect(parseEmbedEvent(event('service:event:ready', readyPayload, { direction: 'action' }))).toMatchObject({
      kind: 'invalid',
      problems: [expect.stringMatching(/^direction:/)],
    });
    expect(parseEmbedAction(action('service:action:refresh', {}, { direction: 'event' })).kind).toBe('invalid');
    expect(
      isEmbedAction(createEmbedEvent({ surface: 'app', type: 'service:event:navigate', payload: { path: '/' } })),
    ).toBe(false);
    expect(isEmbedEvent(createEmbedAction({ type: 'service:action:refresh' }))).toBe(false);
  });

  it('6.1 timestamp: epoch milliseconds, a finite number', () => {
    for (const timestamp of ['1767225600000', Number.NaN, Number.POSITIVE_INFINITY, undefined, null]) {
      const result = parseEmbedEvent(event('service:event:navigate', { path: '/' }, { timestamp }));
      expect(result).toMatchObject({ kind: 'invalid', problems: [expect.stringMatching(/^timestamp:/)] });
    }
    expect(parseEmbedEvent(event('service:event:navigate', { path: '/' }, { timestamp: 0 })).kind).toBe('known');
  });

  it('6.1 surface: always present on events, one of dashboard, app, chat', () => {
    for (const surface of ['dashboard', 'app', 'chat']) {
      expect(isEmbedEvent(event('service:event:navigate', { path: '/' }, { surface }))).toBe(true);
    }
    const missing = event('service:event:navigate', { path: '/' });
    delete missing.surface;
    expect(parseEmbedEvent(missing)).toMatchObject({ kind: 'invalid', problems: [expect.stringMatching(/^surface:/)] });
    expect(isEmbedEvent(event('service:event:navigate', { path: '/' }, { surface: 'page' }))).toBe(false);
    // The envelope rule holds for event types this version does not know too.
    expect(parseEmbedEvent(event('service:event:session-expired', {}, { surface: undefined })).kind).toBe('invalid');
  });

  it('6.1 surface: never on actions, not even as undefined', () => {
    expect(parseEmbedAction(action('service:action:refresh', {}, { surface: 'dashboard' }))).toMatchObject({
      kind: 'invalid',
      problems: [expect.stringMatching(/^surface:/)],
    });
    expect(isEmbedAction(action('service:action:refresh', {}, { surface: undefined }))).toBe(false);
    expect(isEmbedAction(action('service:action:refresh', {}))).toBe(true);
  });

  it('6.1 payload: an object, in both directions', () => {
    for (const payload of [null, undefined, [], 'x', 3]) {
      expect(parseEmbedEvent(event('service:event:dashboard-loaded', payload))).toMatchObject({
        kind: 'invalid',
        problems: [expect.stringMatching(/^payload:/)],
      });
      expect(parseEmbedEvent(event('service:event:brand-new', payload)).kind).toBe('invalid');
      expect(parseEmbedAction(action('service:action:refresh', payload)).kind).toBe('invalid');
    }
  });

  it('6.1 type: events are named service:event:..., actions service:action:...', () => {
    expect(parseEmbedEvent(event('ready', {})).kind).toBe('invalid');
    expect(parseEmbedEvent(event('service:action:refresh', {})).kind).toBe('invalid');
    expect(parseEmbedEvent(event(42 as unknown as string, {})).kind).toBe('invalid');
    expect(parseEmbedAction(action('service:event:ready', {})).kind).toBe('invalid');
  });

  it('6.1 reports every envelope problem at once, each naming its field', () => {
    const result = parseEmbedEvent({
      source: 'service-embed',
      direction: 'event',
      type: 1,
      payload: [],
      timestamp: 'now',
      surface: 'x',
    });
    expect(result.kind).toBe('invalid');
    if (result.kind === 'invalid') {
      expect(result.problems.map((problem) => problem.split(':')[0]).sort()).toEqual([
        'payload',
        'surface',
        'timestamp',
        'type',
      ]);
    }
  });
});

describe('embed protocol: events (6.2)', () => {
  it('6.2 catalog: the eight event types, in order, then session-expiring (behaviour 2)', () => {
    expect(EMBED_EVENT_TYPES).toEqual([
      'service:event:ready',
      'service:event:view',
      'service:event:navigate',
      'service:event:dashboard-loaded',
      'service:event:download',
      'service:event:drilldown',
      'service:event:ai-query',
      'service:event:error',
      'service:event:session-expiring',
    ]);
    for (const type of EMBED_EVENT_TYPES) expect(isEmbedEventType(type)).toBe(true);
    expect(isEmbedEventType('service:event:session-expired')).toBe(false);
    expect(isEmbedEventType('constructor')).toBe(false);
  });

  for (const type of EMBED_EVENT_TYPES) {
    it(`6.2 ${type.slice('service:event:'.length)}: documented payloads are known events, returned as received`, () => {
      for (const payload of validEventPayloads[type]) {
        const message = event(type, payload);
        const result = parseEmbedEvent(message);
        expect(result).toEqual({ kind: 'known', message });
        if (result.kind === 'known') expect(result.message).toBe(message);
        expect(isEmbedEvent(message)).toBe(true);
      }
    });
  }

  it.each(invalidEventPayloads)(
    '6.2 %s: a payload breaking a rule is invalid, naming the field (%#)',
    (type, payload, path) => {
      const result = parseEmbedEvent(event(type, payload));
      expect(result.kind).toBe('invalid');
      if (result.kind === 'invalid')
        expect(result.problems).toEqual([expect.stringMatching(new RegExp(`^${path.replace('.', '\\.')}: expected`))]);
      expect(isEmbedEvent(event(type, payload))).toBe(false);
    },
  );

  it('6.2 payloads may carry fields this version does not know; they pass through untouched', () => {
    const message = event(
      'service:event:download',
      { format: 'csv', target: 'widget', checksum: 'abc', nested: { a: 1 } },
      { traceId: 't' },
    );
    const result = parseEmbedEvent(message);
    expect(result.kind).toBe('known');
    if (result.kind === 'known') expect(result.message).toEqual(message);
  });

  it('6.2 a known type with a bad payload is invalid, never "unknown"', () => {
    expect(parseEmbedEvent(event('service:event:ready', {})).kind).toBe('invalid');
  });

  it('6.2 download never needs the exported rows: a payload with only format and target is complete', () => {
    expect(isEmbedEvent(event('service:event:download', { format: 'csv', target: 'dashboard' }))).toBe(true);
  });
});

describe('embed protocol: unknown events (behaviour 2)', () => {
  it('behaviour 2: an unknown service:event:* with a valid envelope is "unknown", delivered as received', () => {
    for (const type of ['service:event:session-expired', 'service:event:session-renewed', 'service:event:x']) {
      const message = event(type, { expiresAt: 1 }, { surface: 'chat' });
      const result = parseEmbedEvent(message);
      expect(result.kind).toBe('unknown');
      if (result.kind === 'unknown') expect(result.message).toBe(message);
      expect(isEmbedEvent(message)).toBe(false);
    }
  });

  it('behaviour 2: parsing never throws, whatever arrives', () => {
    const envelope = fc.record(
      {
        source: fc.oneof(fc.constant('service-embed'), fc.anything()),
        direction: fc.oneof(fc.constantFrom('event', 'action'), fc.anything()),
        type: fc.oneof(
          fc.constantFrom(...EMBED_EVENT_TYPES, ...EMBED_ACTION_TYPES, 'service:event:new'),
          fc.anything(),
        ),
        payload: fc.oneof(fc.dictionary(fc.string(), fc.anything()), fc.anything()),
        timestamp: fc.oneof(fc.double(), fc.anything()),
        surface: fc.oneof(fc.constantFrom('dashboard', 'app', 'chat'), fc.anything()),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(fc.anything({ withObjectString: true, withNullPrototype: true }), envelope), (value) => {
        const parsedEvent = parseEmbedEvent(value);
        const parsedAction = parseEmbedAction(value);
        expect(['known', 'unknown', 'invalid']).toContain(parsedEvent.kind);
        expect(['known', 'unknown', 'invalid']).toContain(parsedAction.kind);
        expect(isEmbedEvent(value)).toBe(parsedEvent.kind === 'known');
      }),
      { numRuns: 2000 },
    );
  });

  it('behaviour 2: parsing survives cyclic payloads (structured clones may carry cycles)', () => {
    const payload: Record<string, unknown> = { path: '/' };
    payload.self = payload;
    expect(parseEmbedEvent(event('service:event:navigate', payload)).kind).toBe('known');
    const bad: Record<string, unknown> = { path: 1 };
    bad.self = bad;
    expect(parseEmbedEvent(event('service:event:navigate', bad)).kind).toBe('invalid');
  });
});

describe('embed protocol: actions (6.3)', () => {
  it('6.3 catalog: the six actions, then set-timezone and set-session (behaviour 2)', () => {
    expect(EMBED_ACTION_TYPES).toEqual([
      'service:action:set-color-scheme',
      'service:action:set-theme',
      'service:action:set-locale',
      'service:action:set-filter',
      'service:action:navigate',
      'service:action:refresh',
      'service:action:set-timezone',
      'service:action:set-session',
    ]);
  });

  const valid: [string, unknown][] = [
    ['service:action:set-color-scheme', { scheme: 'light' }],
    ['service:action:set-color-scheme', { scheme: 'dark' }],
    ['service:action:set-color-scheme', { scheme: 'auto' }],
    ['service:action:set-theme', {}],
    ['service:action:set-theme', { font: 'Inter', primaryColor: '#0af', borderRadius: '8px' }],
    [
      'service:action:set-theme',
      {
        borderRadius: 8,
        analyticsChat: { backgroundColor: '#fff', chatInput: { backgroundColor: '#eee', borderColor: '#ccc' } },
      },
    ],
    ['service:action:set-theme', { brandNewField: { anything: true }, analyticsChat: { newer: 1 } }],
    ['service:action:set-locale', { locale: 'es-MX' }],
    ['service:action:set-locale', { locale: 'es' }],
    ['service:action:set-locale', { locale: 'es-AR' }],
    ['service:action:set-locale', { locale: 'zh-Hant-TW' }],
    ['service:action:set-filter', { filterUrlParameter: 'f_orders.status={"value":"completed"}' }],
    [
      'service:action:set-filter',
      {
        filterUrlParameter:
          'f_orders.status=%7B%22value%22%3A%22completed%22%7D&f_orders.city=%7B%22value%22%3A%5B%22Oslo%22%5D%7D',
      },
    ],
    ['service:action:navigate', { path: '/dashboards/2' }],
    ['service:action:refresh', {}],
    ['service:action:set-timezone', { timezone: 'Asia/Tokyo' }],
    ['service:action:set-timezone', { timezone: 'UTC' }],
    ['service:action:set-session', { sessionId: '0123456789abcdef0123456789abcdef' }],
    ['service:action:set-session', { sessionId: 'abc', other: 1 }],
  ];
  it.each(valid)('6.3 %s: a documented payload is a known action (%#)', (type, payload) => {
    const message = action(type, payload);
    expect(parseEmbedAction(message)).toEqual({ kind: 'known', message });
    expect(isEmbedAction(message)).toBe(true);
  });

  const invalid: [string, unknown, string][] = [
    ['service:action:set-color-scheme', { scheme: 'blue' }, 'payload.scheme'],
    ['service:action:set-color-scheme', {}, 'payload.scheme'],
    ['service:action:set-theme', { font: 3 }, 'payload.font'],
    ['service:action:set-theme', { borderRadius: { px: 8 } }, 'payload.borderRadius'],
    ['service:action:set-theme', { analyticsChat: 'white' }, 'payload.analyticsChat'],
    [
      'service:action:set-theme',
      { analyticsChat: { chatInput: { borderColor: 0 } } },
      'payload.analyticsChat.chatInput.borderColor',
    ],
    ['service:action:set-locale', { locale: '' }, 'payload.locale'],
    ['service:action:set-locale', { locale: 'english please' }, 'payload.locale'],
    ['service:action:set-locale', {}, 'payload.locale'],
    ['service:action:set-filter', { filterUrlParameter: '' }, 'payload.filterUrlParameter'],
    ['service:action:set-filter', { filterUrlParameter: 'orders.status={"value":"x"}' }, 'payload.filterUrlParameter'],
    ['service:action:set-filter', { filterUrlParameter: 'f_status={"value":"x"}' }, 'payload.filterUrlParameter'],
    ['service:action:set-filter', { filterUrlParameter: 'f_orders.status=completed' }, 'payload.filterUrlParameter'],
    ['service:action:navigate', {}, 'payload.path'],
    ['service:action:navigate', { path: 4 }, 'payload.path'],
    ['service:action:set-timezone', { timezone: 'Mars/Olympus_Mons' }, 'payload.timezone'],
    ['service:action:set-timezone', { timezone: '' }, 'payload.timezone'],
    ['service:action:set-session', { sessionId: 5 }, 'payload.sessionId'],
    ['service:action:set-session', {}, 'payload.sessionId'],
    ['service:action:set-session', { sessionId: ' ' }, 'payload.sessionId'],
  ];
  it.each(invalid)('6.3 %s: a payload breaking a rule is invalid, naming the field (%#)', (type, payload, path) => {
    const result = parseEmbedAction(action(type, payload));
    expect(result.kind).toBe('invalid');
    if (result.kind === 'invalid') expect(result.problems).toEqual([expect.stringContaining(`${path}: expected`)]);
  });

  it('6.3 an action type this version does not know, with a valid envelope, is "unknown" (embeds ignore it)', () => {
    const message = action('service:action:set-brightness', { level: 3 });
    expect(parseEmbedAction(message)).toEqual({ kind: 'unknown', message });
    expect(isEmbedAction(message)).toBe(false);
  });

  it('6.3 every action createEmbedAction builds from a valid payload passes isEmbedAction', () => {
    const built: EmbedAction[] = [
      createEmbedAction({ type: 'service:action:set-color-scheme', payload: { scheme: 'dark' } }),
      createEmbedAction({ type: 'service:action:set-theme', payload: { primaryColor: '#123456' } }),
      createEmbedAction({ type: 'service:action:set-locale', payload: { locale: 'de-DE' } }),
      createEmbedAction({ type: 'service:action:set-filter', payload: { filterUrlParameter: 'f_a.b={"value":1}' } }),
      createEmbedAction({ type: 'service:action:navigate', payload: { path: '/' } }),
      createEmbedAction({ type: 'service:action:refresh' }),
      createEmbedAction({ type: 'service:action:set-timezone', payload: { timezone: 'Europe/Oslo' } }),
      createEmbedAction({ type: 'service:action:set-session', payload: { sessionId: 's' } }),
    ];
    expect(built.map((message) => message.type)).toEqual(EMBED_ACTION_TYPES);
    for (const message of built) expect(isEmbedAction(message)).toBe(true);
  });
});

describe('embed protocol: locales (behaviour 2)', () => {
  it('behaviour 2: the twelve shipped locales, en-US the default', () => {
    expect(SUPPORTED_LOCALES).toEqual([
      'en-US',
      'de-DE',
      'es-ES',
      'es-MX',
      'fr-FR',
      'it-IT',
      'ja-JP',
      'nb-NO',
      'pt-BR',
      'pt-PT',
      'sv-SE',
      'vi-VN',
    ]);
    expect(DEFAULT_LOCALE).toBe('en-US');
  });

  it.each([
    ['es', 'es-ES'],
    ['es-AR', 'es-ES'],
    ['es-419', 'es-ES'],
    ['es-MX', 'es-MX'],
    ['es_mx', 'es-MX'],
    ['ES-mx', 'es-MX'],
    ['pt', 'pt-BR'],
    ['pt-PT', 'pt-PT'],
    ['pt-Latn-AO', 'pt-BR'],
    ['de', 'de-DE'],
    ['de-CH', 'de-DE'],
    ['en-GB', 'en-US'],
    ['fr-CA', 'fr-FR'],
    ['ja', 'ja-JP'],
    ['nb', 'nb-NO'],
    ['vi', 'vi-VN'],
    [' sv ', 'sv-SE'],
    ['zh-CN', 'en-US'],
    ['', 'en-US'],
    [undefined, 'en-US'],
    [null, 'en-US'],
  ] as const)('behaviour 2: resolveLocale(%j) is %s', (input, expected) => {
    expect(resolveLocale(input)).toBe(expected);
  });

  it('behaviour 2: resolveLocale always answers a shipped locale, and each shipped locale resolves to itself', () => {
    for (const locale of SUPPORTED_LOCALES) expect(resolveLocale(locale)).toBe(locale);
    fc.assert(
      fc.property(fc.string(), (input) => {
        expect(SUPPORTED_LOCALES).toContain(resolveLocale(input));
      }),
    );
  });

  it('isLocaleTag accepts full codes, short codes and regional variants, nothing else', () => {
    for (const tag of ['en', 'en-US', 'es-419', 'zh-Hant-TW', 'pt_BR', 'fil']) expect(isLocaleTag(tag)).toBe(true);
    for (const tag of ['', 'e', 'english', 'en-', 'en US', '12-34', 'en-US;drop']) expect(isLocaleTag(tag)).toBe(false);
  });

  it('isTimeZone accepts IANA names the runtime knows', () => {
    for (const zone of ['UTC', 'Asia/Tokyo', 'America/Argentina/Buenos_Aires']) expect(isTimeZone(zone)).toBe(true);
    for (const zone of ['', 'Mars/Olympus_Mons', 'Tokyo']) expect(isTimeZone(zone)).toBe(false);
  });
});

describe('embed protocol: filter parameters (behaviour 2, 6.3 set-filter)', () => {
  it('isMemberName: <view>.<dimension>', () => {
    for (const name of ['orders.status', 'orders_view.created_at', 'a.b.c']) expect(isMemberName(name)).toBe(true);
    for (const name of ['status', '.status', 'orders.', 'orders status.x', '']) expect(isMemberName(name)).toBe(false);
  });

  it('behaviour 2: isFilterUrlParameter takes f_<view>.<dimension>=<JSON> joined by &, encoded or not', () => {
    expect(isFilterUrlParameter('f_orders.status={"value":"completed"}')).toBe(true);
    expect(
      isFilterUrlParameter(`f_orders.status=${encodeURIComponent('{"value":"a&b"}')}&f_orders.n=%7B%22value%22%3A1%7D`),
    ).toBe(true);
    expect(isFilterUrlParameter('')).toBe(false);
    expect(isFilterUrlParameter('f_orders.status={"value":')).toBe(false);
    expect(isFilterUrlParameter('f_orders.status={"value":1}&tg_orders.created_at=month')).toBe(false);
  });
});

describe('embed protocol: types', () => {
  it('narrows known events by type and keeps unknown events apart', () => {
    const received = event(
      'service:event:ready',
      validEventPayloads['service:event:ready'][0],
    ) as unknown as AnyEmbedEvent;
    if (isEmbedEvent(received)) {
      expectTypeOf(received).toEqualTypeOf<EmbedEvent>();
      if (received.type === 'service:event:ready') expectTypeOf(received.payload).toEqualTypeOf<ReadyPayload>();
    } else {
      expectTypeOf(received).toEqualTypeOf<UnknownEmbedEvent>();
      expectTypeOf(received.payload).toEqualTypeOf<{ [key: string]: unknown }>();
    }
    expectTypeOf(createEmbedAction({ type: 'service:action:navigate', payload: { path: '/' } }).payload).toEqualTypeOf<{
      path: string;
    }>();
    // @ts-expect-error navigate needs a payload
    createEmbedAction({ type: 'service:action:navigate' });
    // @ts-expect-error actions are only the known types
    createEmbedAction({ type: 'service:action:unknown' });
    expect(isEmbedEvent(received)).toBe(true);
  });
});
