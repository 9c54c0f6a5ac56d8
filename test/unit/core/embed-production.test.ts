/**
 * The embed path in a production build (`process.env.NODE_ENV === 'production'`, which bundlers
 * set and minifiers then fold): the detail sentences are gone, but every failure is still the same
 * typed class with the same `code`, and every problem still names its field path, so a partner
 * can tell what is wrong. Development keeps the sentences (the other embed tests assert them).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEmbedChannel } from '../../../src/core/embed-channel';
import { buildEmbedUrl, buildFilterUrlParameter, tenantOrigin } from '../../../src/core/embed-url';
import { ServiceConfigError, ServiceValidationError } from '../../../src/core/errors';
import {
  createEmbedAction,
  createEmbedEvent,
  parseEmbedAction,
  parseEmbedEvent,
} from '../../../src/core/protocol/embed';

const TENANT = 'https://acme.example.com';

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('embed errors in production builds', () => {
  beforeEach(() => {
    vi.stubEnv('NODE_ENV', 'production');
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('the protocol reports field paths only', () => {
    const download = createEmbedEvent({
      surface: 'dashboard',
      type: 'service:event:download',
      payload: { format: 'docx', target: 'widget', rowCount: 'many' } as never,
    });
    expect(parseEmbedEvent(download)).toEqual({ kind: 'invalid', problems: ['payload.format', 'payload.rowCount'] });
    expect(parseEmbedEvent({ source: 'other' })).toEqual({ kind: 'invalid', problems: ['source'] });
    const action = {
      ...createEmbedAction({
        type: 'service:action:set-theme',
        payload: { analyticsChat: { chatInput: { borderColor: 1 } } } as never,
      }),
      surface: 'app',
    };
    expect(parseEmbedAction(action)).toEqual({ kind: 'invalid', problems: ['surface'] });
    delete (action as { surface?: string }).surface;
    expect(parseEmbedAction(action)).toEqual({
      kind: 'invalid',
      problems: ['payload.analyticsChat.chatInput.borderColor'],
    });
  });

  it('the URL builder throws ServiceConfigError (invalid_options) naming each field', () => {
    const error = thrown(() =>
      buildEmbedUrl({
        surface: 'dashboard',
        tenantUrl: TENANT,
        sessionId: 's',
        publicId: 'p',
        locale: 'not a tag',
        timezone: 'Mars/Olympus',
        filters: { 'orders.status': { operator: '' }, nodot: 1 },
        timeGrains: { 'orders.created_at': 'a month' },
        switches: { hideHeader: false } as never,
      }),
    );
    expect(error).toBeInstanceOf(ServiceConfigError);
    expect(error).toMatchObject({
      code: 'invalid_options',
      message:
        'buildEmbedUrl: locale; timezone; filters.orders.status; filters.nodot; timeGrains.orders.created_at; switches.hideHeader',
    });
    expect(thrown(() => buildFilterUrlParameter({ 'orders.status': 'a', nodot: 1 }))).toMatchObject({
      message: 'buildFilterUrlParameter: filters.nodot',
    });
    for (const url of ['acme.example.com', 'http://acme.example.com', 'https://user@acme.example.com']) {
      const tenant = thrown(() => tenantOrigin(url));
      expect(tenant).toBeInstanceOf(ServiceConfigError);
      expect(tenant).toMatchObject({ code: 'invalid_options', message: 'tenantUrl' });
    }
  });

  it("the channel's send throws ServiceValidationError (invalid_input) naming each field", () => {
    const iframe = document.createElement('iframe');
    document.body.append(iframe);
    const channel = createEmbedChannel({ iframe, tenantUrl: TENANT, onEvent: () => {} });
    try {
      const invalid = thrown(() =>
        channel.send({ type: 'service:action:set-color-scheme', payload: { scheme: 'sepia' as never } }),
      );
      expect(invalid).toBeInstanceOf(ServiceValidationError);
      expect(invalid).toMatchObject({ code: 'invalid_input', problems: ['payload.scheme'] });
      expect(thrown(() => channel.send({ type: 'service:action:zoom' } as never))).toMatchObject({
        code: 'invalid_input',
        problems: ['type'],
      });
      expect(
        thrown(() => channel.send({ type: 'service:action:set-theme', payload: { font: 'x', f: () => {} } })),
      ).toMatchObject({
        code: 'invalid_input',
        problems: ['payload'],
      });
    } finally {
      channel.dispose();
      iframe.remove();
    }
  });
});
