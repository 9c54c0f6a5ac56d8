/**
 * What the embeds show a viewer when they fail or load: one sentence per error code (translated
 * through `labels`), "Try again" only where loading again can help, the developer's detail in
 * development builds only, and the loading skeleton.
 */
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  EmbedErrorState,
  EmbedPlaceholder,
  describeEmbedError,
  embedLabels,
  type EmbedLabels,
} from '../../../src/components/embeds/parts';
import { ServiceConfigError, ServiceError, ServiceHttpError, ServiceValidationError } from '../../../src/core/errors';
import { createEmbedEvent } from '../../../src/core/protocol/embed';
import type { ServiceErrorCode } from '../../../src/core/protocol/error-codes';

afterEach(() => {
  cleanup();
  vi.unstubAllEnvs();
});

const labels = embedLabels('dashboard');

/** A fatal error the page reported, as the controller types it. */
function embedError(context: string): ServiceError {
  const event = createEmbedEvent({
    surface: 'dashboard',
    type: 'service:event:error',
    payload: { message: 'This session has already been used.', context, fatal: true },
  });
  return new ServiceError(event.payload.message, { code: 'embed_error', cause: event });
}

/** Every code the embeds produce, the sentence a viewer reads and whether "Try again" is offered. */
const cases: [string, ServiceError, keyof EmbedLabels, boolean][] = [
  [
    'session_timeout',
    new ServiceConfigError('getEmbedSession did not settle', { code: 'session_timeout' }),
    'errorTimeout',
    true,
  ],
  ['ready_timeout', new ServiceError('No ready', { code: 'ready_timeout' }), 'errorTimeout', true],
  ['session_failed', new ServiceConfigError('Failed to fetch', { code: 'session_failed' }), 'errorNetwork', true],
  ['server_error', new ServiceHttpError('HTTP 503', { status: 503 }), 'errorServer', true],
  ['origin_changed', new ServiceError('left', { code: 'origin_changed' }), 'errorLeft', true],
  ['embed_error (embed-auth)', embedError('embed-auth'), 'errorExpired', true],
  ['embed_error (embed-load)', embedError('embed-load'), 'errorUnavailable', false],
  ['embed_error (embed-render)', embedError('embed-render'), 'errorOther', false],
  ['invalid_options', new ServiceConfigError('tenantUrl'), 'errorSetup', false],
  ['invalid_input', new ServiceValidationError(['sessionId']), 'errorSetup', false],
  ['unauthorized', new ServiceHttpError('HTTP 401', { status: 401 }), 'errorUnavailable', false],
  ['forbidden', new ServiceHttpError('HTTP 403', { status: 403 }), 'errorUnavailable', false],
  ['not_found', new ServiceHttpError('HTTP 404', { status: 404 }), 'errorUnavailable', false],
  ['an unknown code', new ServiceError('?', { code: 'something_new' as ServiceErrorCode }), 'errorOther', false],
];

describe('the error state', () => {
  it.each(cases)('%s: its sentence, and "Try again" only when a retry can help', (_name, error, key, retryable) => {
    expect(describeEmbedError(error, labels)).toMatchObject({ code: error.code, message: labels[key], retryable });
    const { container } = render(<EmbedErrorState error={error} retry={() => {}} labels={labels} />);
    expect(container.querySelector('[data-part="error-message"]')?.textContent).toBe(labels[key]);
    expect(container.querySelector('[data-part="retry"]') !== null).toBe(retryable);
  });

  it('every default sentence is a sentence, and each one is replaceable through labels', () => {
    const keys = [...new Set(cases.map(([, , key]) => key))];
    for (const key of keys) expect(labels[key]).toMatch(/^[A-Z].+\.$/);
    const german = embedLabels('dashboard', {
      errorTimeout: 'Das Laden hat zu lange gedauert.',
      retry: 'Erneut versuchen',
    });
    const { container } = render(
      <EmbedErrorState error={new ServiceError('x', { code: 'ready_timeout' })} retry={() => {}} labels={german} />,
    );
    expect(container.querySelector('[data-part="error-message"]')?.textContent).toBe(
      'Das Laden hat zu lange gedauert.',
    );
    expect(container.querySelector('[data-part="retry"]')?.textContent).toBe('Erneut versuchen');
  });

  it('in development: the code, the detail and what to check', () => {
    const error = new ServiceError('No ready from the embed in 20000 ms', { code: 'ready_timeout' });
    const { container } = render(<EmbedErrorState error={error} retry={() => {}} labels={labels} />);
    const detail = container.querySelector('[data-part="error-detail"]')?.textContent ?? '';
    expect(detail).toContain('ready_timeout');
    expect(detail).toContain('No ready from the embed in 20000 ms');
    expect(detail).toMatch(/tenantUrl/);
  });

  it('in production: only the sentence for viewers, never the detail', () => {
    vi.stubEnv('NODE_ENV', 'production');
    const error = new ServiceConfigError('ServiceProvider: invalid `tenantUrl`', { code: 'invalid_options' });
    const { container } = render(<EmbedErrorState error={error} retry={() => {}} labels={labels} />);
    expect(container.querySelector('[data-part="error-detail"]')).toBeNull();
    expect(container.textContent).toBe(`${labels.errorTitle}${labels.errorSetup}`);
    expect(describeEmbedError(error, labels).hint).toBeUndefined();
  });
});

describe('the loading state', () => {
  it('a skeleton under a label screen readers announce', () => {
    const { container } = render(<EmbedPlaceholder label={labels.loading} />);
    const status = container.querySelector('[role="status"]')!;
    expect(status.textContent).toBe(labels.loading);
    expect(status.querySelector('[data-part="skeleton"]')?.getAttribute('aria-hidden')).toBe('true');
    // It covers the frame: sized by the embed, never by its content.
    expect(status.getAttribute('style')).toMatch(/position: absolute;.*inset: 0/);
  });
});
