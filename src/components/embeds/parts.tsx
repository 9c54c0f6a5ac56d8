/**
 * The parts of an embed's frame a partner can recompose: the placeholder shown until `ready`, the
 * error state with its retry button. Styled with the `--service-*` tokens only.
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

const NOUNS: { readonly [S in Surface]: readonly [string, string] } = {
  dashboard: ['Dashboard', 'dashboard'],
  app: ['Analytics app', 'analytics app'],
  chat: ['Analytics chat', 'analytics chat'],
};

/** The default {@link EmbedLabels} of a surface, with `labels` over them. */
export function embedLabels(surface: Surface, labels?: Partial<EmbedLabels>): EmbedLabels {
  const [title, noun] = NOUNS[surface];
  return { title, loading: `Loading the ${noun}…`, errorTitle: `The ${noun} could not be shown`, retry: 'Try again', ...labels };
}

/** Covers the frame exactly, so the placeholder and the error take the iframe's size (no layout shift). */
const cover: CSSProperties = {
  position: 'absolute',
  inset: 0,
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  justifyContent: 'center',
  gap: 'var(--service-space-3, 12px)',
  padding: 'var(--service-space-4, 16px)',
  boxSizing: 'border-box',
  borderRadius: 'inherit',
  background: 'var(--service-color-surface, #f6f7f9)',
  color: 'var(--service-color-text-muted, #5b6270)',
  fontFamily: 'var(--service-font-family, system-ui, sans-serif)',
  fontSize: 'var(--service-font-size-sm, 0.875rem)',
  textAlign: 'center',
};

/** Props of {@link EmbedPlaceholder}. */
export interface EmbedPlaceholderProps {
  /** What it says; announced politely to screen readers. */
  label: string;
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

/** Props of {@link EmbedErrorState}. */
export interface EmbedErrorStateProps {
  /** The typed error; its `message` is shown under the heading. */
  error: ServiceError | undefined;
  /** Loads the embed again with a new session. */
  retry: () => void;
  labels: Pick<EmbedLabels, 'errorTitle' | 'retry'>;
  children?: ReactNode;
}

/** Props of {@link EmbedRetryButton}. */
export interface EmbedRetryButtonProps {
  retry: () => void;
  label: string;
}

/** The error state's button: loads the embed again. */
export function EmbedRetryButton({ retry, label }: EmbedRetryButtonProps): ReactNode {
  return (
    <button
      type="button"
      data-part="retry"
      onClick={retry}
      style={{
        font: 'inherit',
        padding: 'var(--service-space-2, 8px) var(--service-space-4, 16px)',
        border: 0,
        borderRadius: 'var(--service-radius-md, 8px)',
        background: 'var(--service-color-accent, #2454d6)',
        color: 'var(--service-color-on-accent, #fff)',
        cursor: 'pointer',
      }}
    >
      {label}
    </button>
  );
}

/** Shown over the frame when the session, the configuration or the embed itself failed. */
export function EmbedErrorState({ error, retry, labels, children }: EmbedErrorStateProps): ReactNode {
  return (
    <div role="alert" data-part="error" style={cover}>
      <strong style={{ color: 'var(--service-color-danger, #b42318)', fontSize: 'var(--service-font-size-md, 1rem)' }}>{labels.errorTitle}</strong>
      {error && <span data-part="error-message">{error.message}</span>}
      <EmbedRetryButton retry={retry} label={labels.retry} />
      {children}
    </div>
  );
}
