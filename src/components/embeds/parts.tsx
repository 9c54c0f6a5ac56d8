/**
 * The parts of an embed's frame a partner can recompose: the skeleton shown until `ready`, the
 * error state with its retry button. Styled by `@service/react/styles.css` through their
 * `data-part` (with the `--service-*` tokens); only what keeps them over the frame is inline.
 *
 * @module
 */
import type { ComponentPropsWithoutRef, CSSProperties } from 'react';
import type { ServiceError } from '../../core/errors';
import type { Surface } from '../../core/protocol/embed';
import type { ServiceErrorCode } from '../../core/protocol/error-codes';
import { createPart } from '../part';

/**
 * Every string an embed shows; each replaceable through the `labels` prop. The error state tells
 * a viewer one sentence per error `code` (see {@link describeEmbedError}); the error's own message,
 * its code and a hint are for developers and show in development builds only.
 */
export interface EmbedLabels {
  /** The iframe's accessible `title`. Default `Dashboard`, `Analytics app` or `Analytics chat`. */
  title: string;
  /** Text of the placeholder, announced to screen readers. Default `Loading the dashboard…` (per surface). */
  loading: string;
  /** Heading of the error state. Default `The dashboard could not be shown` (per surface). */
  errorTitle: string;
  /** The retry button. Default `Try again`. */
  retry: string;
  /** `session_timeout`, `ready_timeout`: it took too long. */
  errorTimeout: string;
  /** `session_failed` (the session could not be fetched: network, or your route failed): try again. */
  errorNetwork: string;
  /** `server_error`: your session route or the service answered 5xx. */
  errorServer: string;
  /** `embed_error` of the page's authentication (`context: embed-auth`): the session expired or was used. */
  errorExpired: string;
  /** `origin_changed`: the frame went to another site. */
  errorLeft: string;
  /** `unauthorized`, `forbidden`, `not_found`, `bad_request` and other 4xx, `embed_error` of what the page shows: not for this viewer, or gone. */
  errorUnavailable: string;
  /** `invalid_options`, `invalid_input`: the embed is set up wrong (your code, not the viewer). */
  errorSetup: string;
  /** Any other failure the page reported (`embed_error`), and codes without a sentence of their own. */
  errorOther: string;
}

const NOUNS: { readonly [S in Surface]: string } = {
  dashboard: 'Dashboard',
  app: 'Analytics app',
  chat: 'Analytics chat',
};

/** The default {@link EmbedLabels} of a surface, with `labels` over them. */
export function embedLabels(surface: Surface, labels?: Partial<EmbedLabels>): EmbedLabels {
  const title = NOUNS[surface];
  const noun = title.toLowerCase();
  return {
    title,
    loading: `Loading the ${noun}…`,
    errorTitle: `The ${noun} could not be shown`,
    retry: 'Try again',
    errorTimeout: 'It took too long to load.',
    errorNetwork: 'It could not be reached.',
    errorServer: 'The service is not answering.',
    errorExpired: 'Your session has expired.',
    errorLeft: 'It went to another site.',
    errorUnavailable: 'It is not available to you.',
    errorSetup: 'It is not set up correctly.',
    errorOther: 'Something went wrong.',
    ...labels,
  };
}

/** What the error state says about an error: {@link describeEmbedError}'s answer. */
export interface EmbedErrorDescription {
  /** The error's `code`, such as `ready_timeout`; `unknown_error` when there is no error. */
  code: ServiceErrorCode;
  /** The sentence for viewers, from `labels`. */
  message: string;
  /** Whether loading again can fix it (network, timeouts, 5xx, an expired session, a frame that left); never for setup errors. */
  retryable: boolean;
  /** What a developer should check; `undefined` in production builds. */
  hint: string | undefined;
}

/**
 * The label key and whether a retry can help, per error code; codes not listed are `errorOther`,
 * not retryable. `embed_error` depends on where the page failed (see {@link describeEmbedError}).
 */
const SENTENCES: { readonly [code in ServiceErrorCode]?: readonly [keyof EmbedLabels, 1?] } = {
  session_timeout: ['errorTimeout', 1],
  ready_timeout: ['errorTimeout', 1],
  session_failed: ['errorNetwork', 1],
  server_error: ['errorServer', 1],
  origin_changed: ['errorLeft', 1],
  invalid_options: ['errorSetup'],
  invalid_input: ['errorSetup'],
  unauthorized: ['errorUnavailable'],
  forbidden: ['errorUnavailable'],
  not_found: ['errorUnavailable'],
  bad_request: ['errorUnavailable'],
  http_error: ['errorUnavailable'],
};

/**
 * What the error state tells about `error`: the viewer's sentence for its code (from `labels`),
 * whether "Try again" is offered, and in development a hint. A fatal `embed_error` is an expired
 * session (retryable) when the page failed to authenticate (`context: embed-auth`), a page the
 * viewer may not see (`embed-load`) or another failure.
 */
export function describeEmbedError(error: ServiceError | undefined, labels: EmbedLabels): EmbedErrorDescription {
  const code = error?.code ?? 'unknown_error';
  const context = (error?.cause as { payload?: { context?: unknown } } | undefined)?.payload?.context;
  const [key, retryable] =
    code === 'embed_error'
      ? context === 'embed-auth'
        ? (['errorExpired', 1] as const)
        : context === 'embed-load'
          ? (['errorUnavailable'] as const)
          : (['errorOther'] as const)
      : (SENTENCES[code] ?? ['errorOther']);
  return {
    code,
    message: labels[key],
    retryable: !!retryable,
    hint: process.env.NODE_ENV !== 'production' ? HINTS[code] : undefined,
  };
}

/** What to check, per code: development builds only. */
const HINTS: { readonly [code in ServiceErrorCode]?: string } =
  process.env.NODE_ENV !== 'production'
    ? {
        session_timeout: 'getEmbedSession did not settle in time: is your session route reachable?',
        session_failed: 'getEmbedSession rejected: check your session route (fetchEmbedSession) and its server log.',
        server_error: 'Your session route answered 5xx: check its server log.',
        ready_timeout:
          "The page never said ready: tenantUrl's origin must be the iframe's, and the session must be for this surface.",
        origin_changed: 'The frame navigated to another site after ready: a redirect, or a link opened inside it.',
        invalid_options: 'Check ServiceProvider (tenantUrl, getEmbedSession) and this embed’s props.',
        invalid_input: 'getEmbedSession must resolve with the sessionId of generate-session.',
        unauthorized: 'Your session route refused the viewer: are they signed in to your app?',
        forbidden: 'Your session route or the service refused this viewer or deployment.',
        not_found: 'Check the session route URL, publicId or deploymentId.',
        embed_error: 'The page reported this error itself (onError receives its event).',
      }
    : {};

/** Over the frame even without the stylesheet: the placeholder never pushes the iframe down. */
const cover: CSSProperties = { position: 'absolute', inset: 0 };

/** Props of {@link EmbedPlaceholder}; other props go to its root `<div>`. */
export interface EmbedPlaceholderProps extends ComponentPropsWithoutRef<'div'> {
  /** What it says; announced politely to screen readers (the stylesheet shows the skeleton instead). */
  label: string;
}

/**
 * Shown over the frame until the embed is `ready` (and while a session is renewed by a reload): a
 * skeleton the size of the embed, so nothing shifts when the page appears; it shimmers only when
 * the viewer allows motion (`prefers-reduced-motion`). `data-part="placeholder"`, `role="status"`;
 * its `children` (a spinner, a skeleton of your own...) come after the skeleton.
 */
export const EmbedPlaceholder = /*#__PURE__*/ createPart(
  'EmbedPlaceholder',
  'div',
  'placeholder',
  undefined,
  function EmbedPlaceholder({ label, children, ...rest }: EmbedPlaceholderProps) {
    return {
      rest,
      props: { role: 'status', style: cover },
      children: (
        <>
          <span data-part="placeholder-label">{label}</span>
          <span data-part="skeleton" aria-hidden="true" />
          {children}
        </>
      ),
    };
  },
);

/** Props of {@link EmbedRetryButton}; other props go to its `<button>`. */
export interface EmbedRetryButtonProps extends ComponentPropsWithoutRef<'button'> {
  /** Called on click: the embed's `retry`, which loads it again with a new session. */
  retry: () => void;
  /** The button's text (the embed's `labels.retry`, default `Try again`). */
  label: string;
}

/** The error state's button (`data-part="retry"`): loads the embed again with a new session. */
export const EmbedRetryButton = /*#__PURE__*/ createPart(
  'EmbedRetryButton',
  'button',
  'retry',
  undefined,
  function EmbedRetryButton({ retry, label, ...rest }: EmbedRetryButtonProps) {
    return { rest, props: { type: 'button', onClick: retry }, children: label };
  },
);

/** Props of {@link EmbedErrorState}; other props go to its root `<div>`. */
export interface EmbedErrorStateProps extends ComponentPropsWithoutRef<'div'> {
  /** The typed error: its code picks the viewer's sentence; its message shows in development. */
  error: ServiceError | undefined;
  /** Loads the embed again with a new session; offered only when that can help. */
  retry: () => void;
  /** The heading, the retry button and the sentences (the embed's `labels`); missing sentences are English. */
  labels: Pick<EmbedLabels, 'errorTitle' | 'retry'> & Partial<EmbedLabels>;
}

/**
 * Shown over the frame when the session, the configuration or the embed itself failed: a sentence
 * for the viewer, "Try again" when loading again can fix it, and in development the error's code,
 * message and what to check. `data-part="error"`, `role="alert"`, `data-code`; its `children` (a
 * link to support, a request id...) come after the retry button.
 */
export const EmbedErrorState = /*#__PURE__*/ createPart(
  'EmbedErrorState',
  'div',
  'error',
  undefined,
  function EmbedErrorState({ error, retry, labels, children, ...rest }: EmbedErrorStateProps) {
    const { code, message, retryable, hint } = describeEmbedError(error, embedLabels('dashboard', labels));
    return {
      rest,
      props: { role: 'alert', style: cover, 'data-code': code },
      children: (
        <>
          <strong data-part="error-title">{labels.errorTitle}</strong>
          <span data-part="error-message">{message}</span>
          {process.env.NODE_ENV !== 'production' && error && (
            <small data-part="error-detail">
              <code>{code}</code> {error.message} {hint}
            </small>
          )}
          {retryable && <EmbedRetryButton retry={retry} label={labels.retry} />}
          {children}
        </>
      ),
    };
  },
);
