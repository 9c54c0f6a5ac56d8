/**
 * `EmbeddedDashboard`, `EmbeddedApp` and `EmbeddedChat`: one frame over `useEmbed`, three
 * surfaces. Each renders a root `<div data-state>` sized by `className`/`style`/`height`, the
 * iframe, and over it the skeleton until `ready`, or the error state (a sentence per error code, and
 * "Try again" when a retry can help).
 *
 * @module
 */
import { forwardRef, useImperativeHandle, type CSSProperties, type ForwardedRef, type ReactNode } from 'react';
import type { ChatSwitches } from '../../core/embed-url';
import type { ServiceError } from '../../core/errors';
import type { Surface } from '../../core/protocol/embed';
import {
  useEmbed,
  type EmbedCommonOptions,
  type EmbedDashboardOptions,
  type EmbedHandle,
  type UseEmbedOptions,
} from '../../react/use-embed';
import {
  EmbedErrorState,
  EmbedPlaceholder,
  describeEmbedError,
  embedLabels,
  type EmbedErrorDescription,
  type EmbedLabels,
} from './parts';

/** Props of the frame every embed component shares. */
export interface EmbedFrameProps {
  /** The iframe's accessible title. Default from the surface (`Dashboard`...); same as `labels.title`. */
  title?: string;
  /** Replaces any of the strings the embed shows. */
  labels?: Partial<EmbedLabels>;
  /** Class of the root element, which sizes the frame. */
  className?: string;
  /** Style of the root element; `height` here wins over the `height` prop. */
  style?: CSSProperties;
  /** Height of the frame (a number is pixels). Default 600. */
  height?: number | string;
  /** Replaces the placeholder shown until `ready`. Rendered inside the root, over the iframe. */
  renderPlaceholder?: (props: { surface: Surface; labels: EmbedLabels; status: 'loading' | 'renewing' }) => ReactNode;
  /**
   * Replaces the error state. Call `retry` to load again with a new session; `message` is the
   * viewer's sentence for the error's `code` and `retryable` whether a retry can help (see
   * `describeEmbedError`).
   */
  renderError?: (
    props: {
      /** The surface that failed. */
      surface: Surface;
      /** The embed's strings, defaults filled in. */
      labels: EmbedLabels;
      /** The typed error. */
      error: ServiceError | undefined;
      /** Loads the embed again with a new session. */
      retry: () => void;
    } & EmbedErrorDescription,
  ) => ReactNode;
}

/** Props of {@link EmbeddedDashboard}. */
export interface EmbeddedDashboardProps extends EmbedDashboardOptions, EmbedFrameProps {
  /** Public id of the published dashboard. Changing it loads the other dashboard (a new session). */
  publicId: string;
}

/** Props of {@link EmbeddedApp}. */
export interface EmbeddedAppProps extends EmbedDashboardOptions, EmbedFrameProps {
  /** The deployment of the creator-mode app, a positive integer. */
  deploymentId: number;
}

/** Props of {@link EmbeddedChat}. */
export interface EmbeddedChatProps extends EmbedCommonOptions, EmbedFrameProps {
  /** `showNewChat`, `showChatInput`, `showChatHistory`: only `false` hides a part. */
  switches?: ChatSwitches;
}

/**
 * What the `allow` attribute grants a surface, and nothing more: every surface may copy, and the
 * dashboard and app may also go full screen (chat has nothing to show full screen).
 */
const allowFor = (surface: Surface): string => `clipboard-write${surface === 'chat' ? '' : '; fullscreen'}`;

// Each surface renders the frame by calling it, not as a nested forwardRef component: one React
// layer and one wrapper fewer in the bundle, with the same hooks in the same order on every render.
function EmbedFrame(props: EmbedFrameProps & UseEmbedOptions, ref: ForwardedRef<EmbedHandle>): ReactNode {
  const { surface, title, className, style, height = 600, renderPlaceholder, renderError } = props;
  const { status, error, retry, handle, iframeRef } = useEmbed(props);
  useImperativeHandle(ref, () => handle, [handle]);
  const labels = embedLabels(surface, title === undefined ? props.labels : { title, ...props.labels });
  return (
    <div
      className={className}
      style={{ position: 'relative', height, ...style }}
      data-service-embed={surface}
      data-state={status}
    >
      {iframeRef && (
        <iframe
          ref={iframeRef}
          title={labels.title}
          allow={allowFor(surface)}
          data-part="frame"
          // Hidden, not removed, until ready: the page loads behind the placeholder.
          style={{
            display: 'block',
            width: '100%',
            height: '100%',
            border: 0,
            visibility: status === 'ready' ? undefined : 'hidden',
          }}
        />
      )}
      {status === 'error' ? (
        renderError ? (
          renderError({ surface, labels, error, retry, ...describeEmbedError(error, labels) })
        ) : (
          <EmbedErrorState error={error} retry={retry} labels={labels} />
        )
      ) : (
        status !== 'ready' &&
        (renderPlaceholder ? (
          renderPlaceholder({ surface, labels, status })
        ) : (
          <EmbedPlaceholder label={labels.loading} />
        ))
      )}
    </div>
  );
}

/**
 * A published dashboard, signed-embedded: `<EmbeddedDashboard publicId="sales-overview" />`
 * inside `<ServiceProvider>`. Drive it with its props and its ref ({@link EmbedHandle}); listen
 * with its callbacks.
 */
export const EmbeddedDashboard = /*#__PURE__*/ forwardRef<EmbedHandle, EmbeddedDashboardProps>(
  function EmbeddedDashboard(props, ref) {
    return EmbedFrame({ ...props, surface: 'dashboard' }, ref);
  },
);

/** The creator-mode app of a deployment, signed-embedded: `<EmbeddedApp deploymentId={1} />`. */
export const EmbeddedApp = /*#__PURE__*/ forwardRef<EmbedHandle, EmbeddedAppProps>(function EmbeddedApp(props, ref) {
  return EmbedFrame({ ...props, surface: 'app' }, ref);
});

/** The standalone analytics chat surface, signed-embedded: `<EmbeddedChat />`. */
export const EmbeddedChat = /*#__PURE__*/ forwardRef<EmbedHandle, EmbeddedChatProps>(function EmbeddedChat(props, ref) {
  return EmbedFrame({ ...props, surface: 'chat' }, ref);
});
