/**
 * The parts of an embed's frame a partner can recompose: the placeholder shown until `ready`, the
 * error state with its retry button. Styled by `@service/react/styles.css` through their
 * `data-part` (with the `--service-*` tokens); only what keeps them over the frame is inline.
 *
 * @module
 */
import type { CSSProperties, ReactNode } from 'react';
import type { ServiceError } from '../../core/errors';
import type { Surface } from '../../core/protocol/embed';

/** Every string an embed shows; each replaceable through the `labels` prop. */
export interface EmbedLabels {
  /** The iframe's accessible `title`. Default `Dashboard`, `Analytics app` or `Analytics chat`. */
  title: string;
  /** Text of the placeholder. Default `Loading the dashboard…` (per surface). */
  loading: string;
  /** Heading of the error state. Default `The dashboard could not be shown` (per surface). */
  errorTitle: string;
  /** The retry button. Default `Try again`. */
  retry: string;
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
    ...labels,
  };
}

/** Over the frame even without the stylesheet: the placeholder never pushes the iframe down. */
const cover: CSSProperties = { position: 'absolute', inset: 0 };

/** Props of {@link EmbedPlaceholder}. */
export interface EmbedPlaceholderProps {
  /** What it says; announced politely to screen readers. */
  label: string;
  /** Shown after the label (a spinner, a skeleton of the dashboard...). */
  children?: ReactNode;
}

/** Shown over the frame until the embed is `ready` (and while a session is renewed). */
export function EmbedPlaceholder({ label, children }: EmbedPlaceholderProps): ReactNode {
  return (
    <div role="status" data-part="placeholder" style={cover}>
      {label}
      {children}
    </div>
  );
}

/** Props of {@link EmbedRetryButton}. */
export interface EmbedRetryButtonProps {
  /** Called on click: the embed's `retry`, which loads it again with a new session. */
  retry: () => void;
  /** The button's text (the embed's `labels.retry`, default `Try again`). */
  label: string;
}

/** The error state's button: loads the embed again with a new session. */
export function EmbedRetryButton({ retry, label }: EmbedRetryButtonProps): ReactNode {
  return (
    <button type="button" data-part="retry" onClick={retry}>
      {label}
    </button>
  );
}

/** Props of {@link EmbedErrorState}. */
export interface EmbedErrorStateProps {
  /** The typed error; its `message` is shown under the heading. */
  error: ServiceError | undefined;
  /** Loads the embed again with a new session. */
  retry: () => void;
  /** The heading and the retry button's text (the embed's `labels`). */
  labels: Pick<EmbedLabels, 'errorTitle' | 'retry'>;
  /** Shown after the retry button (a link to support, a request id...). */
  children?: ReactNode;
}

/** Shown over the frame when the session, the configuration or the embed itself failed. */
export function EmbedErrorState({ error, retry, labels, children }: EmbedErrorStateProps): ReactNode {
  return (
    <div role="alert" data-part="error" style={cover}>
      <strong data-part="error-title">{labels.errorTitle}</strong>
      {error && <span data-part="error-message">{error.message}</span>}
      <EmbedRetryButton retry={retry} label={labels.retry} />
      {children}
    </div>
  );
}
