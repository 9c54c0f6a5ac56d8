/**
 * `EmbeddedDashboard`, `EmbeddedApp` and `EmbeddedChat`: one frame over `useEmbed`, three
 * surfaces. Each renders a root `<div data-part="embed" data-state>` sized by
 * `className`/`style`/`height` (other DOM props go there too), the iframe, and over it the
 * skeleton until `ready`, or the error state (a sentence per error code, and "Try again" when a
 * retry can help). The ref is the embed's handle.
 *
 * @module
 */
import {
  useImperativeHandle,
  type ComponentPropsWithoutRef,
  type CSSProperties,
  type ForwardedRef,
  type ForwardRefExoticComponent,
  type PropsWithoutRef,
  type ReactNode,
  type RefAttributes,
} from 'react';
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
import { createPart, type PartRender } from '../part';
import {
  EmbedErrorState,
  EmbedPlaceholder,
  describeEmbedError,
  embedLabels,
  type EmbedErrorDescription,
  type EmbedLabels,
} from './parts';

/**
 * Props of the frame every embed component shares. Other props (`id`, `data-*`, `aria-*`, DOM
 * events) go to the root `<div>`; the ref is the embed's handle ({@link EmbedHandle}).
 */
export interface EmbedFrameProps extends Omit<ComponentPropsWithoutRef<'div'>, keyof EmbedCommonOptions | 'title'> {
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

/** A key of any member of a union (`keyof` of a union keeps only the shared ones). */
type KeyOfAny<T> = T extends unknown ? keyof T : never;

/**
 * The props an embed takes for itself (`useEmbed`'s options and the frame's own); the rest go to
 * its root. Typed as a record of every such key, so an option added to `useEmbed` fails to compile
 * here until it is listed, instead of reaching the DOM.
 */
const OWN_PROPS: {
  readonly [K in KeyOfAny<UseEmbedOptions> | 'title' | 'labels' | 'height' | 'renderPlaceholder' | 'renderError']-?: 1;
} = {
  surface: 1,
  publicId: 1,
  deploymentId: 1,
  switches: 1,
  timeGrains: 1,
  allowExport: 1,
  readyTimeoutMs: 1,
  renewAfterMs: 1,
  renewal: 1,
  colorScheme: 1,
  theme: 1,
  locale: 1,
  filters: 1,
  timezone: 1,
  title: 1,
  labels: 1,
  height: 1,
  renderPlaceholder: 1,
  renderError: 1,
  onEvent: 1,
  onReady: 1,
  onView: 1,
  onNavigate: 1,
  onDashboardLoaded: 1,
  onDownload: 1,
  onDrilldown: 1,
  onAiQuery: 1,
  onError: 1,
  onSessionExpiring: 1,
  onSessionRenewed: 1,
};

// Each surface's render calls the frame's hook: one React layer and one wrapper fewer in the bundle,
// with the same hooks in the same order on every render.
function useEmbedFrame(props: EmbedFrameProps & UseEmbedOptions, ref: ForwardedRef<unknown>): PartRender<'div'> {
  const { surface, title, style, height = 600, renderPlaceholder, renderError } = props;
  const { status, error, retry, handle, iframeRef } = useEmbed(props);
  useImperativeHandle(ref as ForwardedRef<EmbedHandle>, () => handle, [handle]);
  const labels = embedLabels(surface, title === undefined ? props.labels : { title, ...props.labels });
  const rest: Record<string, unknown> = {};
  for (const key in props) if (!Object.hasOwn(OWN_PROPS, key)) rest[key] = props[key as keyof typeof props];
  return {
    rest,
    state: status,
    handle: true,
    props: { style: { position: 'relative', height, ...style }, 'data-service-embed': surface },
    children: (
      <>
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
      </>
    ),
  };
}

/** The component of one surface: a part whose render is the frame's hook. */
function embedOf<P>(surface: Surface, displayName: string): EmbedComponent<P> {
  return createPart(displayName, 'div', 'embed', undefined, function Embedded(props: P & { className?: string }, ref) {
    return useEmbedFrame({ ...props, surface } as EmbedFrameProps & UseEmbedOptions, ref);
  }) as unknown as EmbedComponent<P>;
}

/**
 * A published dashboard, signed-embedded: `<EmbeddedDashboard publicId="sales-overview" />`
 * inside `<ServiceProvider>`. Drive it with its props and its ref ({@link EmbedHandle}); listen
 * with its callbacks.
 */
export const EmbeddedDashboard = /*#__PURE__*/ embedOf<EmbeddedDashboardProps>('dashboard', 'EmbeddedDashboard');

/** The creator-mode app of a deployment, signed-embedded: `<EmbeddedApp deploymentId={1} />`. */
export const EmbeddedApp = /*#__PURE__*/ embedOf<EmbeddedAppProps>('app', 'EmbeddedApp');

/** The standalone analytics chat surface, signed-embedded: `<EmbeddedChat />`. */
export const EmbeddedChat = /*#__PURE__*/ embedOf<EmbeddedChatProps>('chat', 'EmbeddedChat');

/** An embed component: its props, and its ref is the embed's handle. */
export type EmbedComponent<P> = ForwardRefExoticComponent<PropsWithoutRef<P> & RefAttributes<EmbedHandle>>;
