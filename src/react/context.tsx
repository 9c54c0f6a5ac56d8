/**
 * `ServiceProvider`: one provider for everything a partner app sets once (the tenant, how embed
 * sessions are fetched, embed defaults, chat and data settings), and the hook that reads it.
 *
 * @module
 */
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { ChatClientOptions } from '../core/chat-client';
import type { DataSettings } from '../core/data-query';
import { tenantOrigin } from '../core/embed-url';
import { ServiceConfigError } from '../core/errors';
import type { GetEmbedSession } from '../core/protocol/host-routes';
import type { ColorScheme, EmbedTheme } from '../core/protocol/embed';
import { warnThemeContrast } from './theme';
import { useLatest } from './use-latest';

export type { EmbedSessionRequest, GetEmbedSession } from '../core/protocol/host-routes';

/** Defaults every embed inherits; each embed's own prop of the same name wins. */
export interface EmbedDefaults {
  /** Colour scheme of the embeds: `light`, `dark` or `auto` (the viewer's OS preference). */
  colorScheme?: ColorScheme;
  /**
   * Brand theme (the session API's `embedTheme` shape): the embeds get it as `set-theme`, and the
   * native chat and its charts as `--service-*` tokens (`primaryColor`, `font`, `borderRadius`,
   * `analyticsChat` colours; docs/theming.md has the mapping). In development, colours that fail
   * WCAG AA contrast where the chat uses them are reported with `console.warn`.
   */
  theme?: EmbedTheme;
  /** UI language of the embeds, a BCP-47 tag such as `de-DE`. */
  locale?: string;
  /** Time zone the embeds show dates in, an IANA name such as `Europe/Berlin`. */
  timezone?: string;
}

/**
 * Chat settings every `useAgentChat` and `AgentChat` inherits (each may override them).
 * `url` is `{ai_url}` or, in browsers, the host's chat proxy route (for example `/api/service`).
 */
export type ChatSettings = Partial<Pick<ChatClientOptions, 'url' | 'auth' | 'sessionSettings' | 'fetch'>>;

export type { DataSettings } from '../core/data-query';

/** Props of {@link ServiceProvider}. */
export interface ServiceProviderProps extends EmbedDefaults {
  /**
   * The tenant host `{base_url}`, for example `https://acme.example.com`; the origin every embed
   * loads from and the only origin whose messages are trusted. Must be https (plain http only on
   * loopback, for the emulator). Needed by the embeds; a bad value is reported by each embed as a
   * `ServiceConfigError` (in its error state and to `onError`) rather than crashing the app.
   */
  tenantUrl?: string;
  /**
   * Fetches a session id for one iframe load, from your own server (which holds the API key).
   * Called once per iframe load. `fetchEmbedSession()` is a ready one for a route made with
   * `createSessionHandler`. Read through a ref: an inline function never reloads an embed.
   */
  getEmbedSession?: GetEmbedSession;
  /** Chat settings for `useAgentChat` and `AgentChat`. */
  chat?: ChatSettings;
  /**
   * The data API: `{data_url}` (or a proxy route of your server) and the viewer's token, often
   * `fetchDataToken()`. The data hooks and components (`useDataQuery`, `MetricCard`, `QueryChart`,
   * `QueryTable`) and the chat's "load all" use it unless given their own.
   */
  data?: DataSettings;
  /**
   * The TanStack Query client the library's data fetches use. Default: the one of an enclosing
   * `QueryClientProvider`, else one of the library's own. The library never wraps your tree in a
   * `QueryClientProvider`, so your own queries keep the client you gave them.
   */
  queryClient?: QueryClient;
  /** Your app; embeds and chats anywhere below read the provider. */
  children?: ReactNode;
}

/** What the provider shares; read it with {@link useServiceContext}. */
export interface ServiceContextValue {
  /** `tenantUrl` as given. */
  readonly tenantUrl: string | undefined;
  /** The origin of `tenantUrl`, when it is valid. */
  readonly tenantOrigin: string | undefined;
  /** Why `tenantUrl` is unusable: missing or not https. Embeds show it; the chat does not need it. */
  readonly tenantError: ServiceConfigError | undefined;
  /** A stable function calling the latest `getEmbedSession` prop; `undefined` without one. */
  readonly getEmbedSession: GetEmbedSession | undefined;
  /** The provider's `colorScheme`, `theme`, `locale` and `timezone`, which every embed inherits. */
  readonly embedDefaults: EmbedDefaults;
  /** The `chat` prop as given. */
  readonly chat: ChatSettings | undefined;
  /** The `data` prop as given. */
  readonly data: DataSettings | undefined;
  /** The `queryClient` prop as given. */
  readonly queryClient: QueryClient | undefined;
  /**
   * Where this provider keeps the library's own TanStack Query client, created on first use by
   * `useServiceQueryClient` when neither `queryClient` nor a `QueryClientProvider` gives one: one
   * per provider, stable for its lifetime.
   */
  readonly ownQueryClient: {
    /** The provider's own client, created on first use when the host passes none. */
    current: QueryClient | undefined;
  };
}

const ServiceContext = /*#__PURE__*/ createContext<ServiceContextValue | null>(null);
ServiceContext.displayName = 'ServiceContext';

function checkTenant(tenantUrl: string | undefined): Pick<ServiceContextValue, 'tenantOrigin' | 'tenantError'> {
  try {
    if (tenantUrl === undefined) {
      throw new ServiceConfigError(
        process.env.NODE_ENV !== 'production'
          ? 'ServiceProvider: `tenantUrl` is required by the embeds (your {base_url}, e.g. https://acme.example.com)'
          : 'tenantUrl',
      );
    }
    return { tenantOrigin: tenantOrigin(tenantUrl), tenantError: undefined };
  } catch (error) {
    // `tenantOrigin` throws a ServiceConfigError that quotes `tenantUrl` and says what is wrong.
    return { tenantOrigin: undefined, tenantError: error as ServiceConfigError };
  }
}

/**
 * Shares the tenant, session fetching, embed defaults and chat and data settings with every embed
 * and chat below it. Renders no element of its own and needs no `window` (SSR-safe).
 *
 * ```tsx
 * <ServiceProvider tenantUrl="https://acme.example.com" getEmbedSession={fetchEmbedSession()}>
 *   <EmbeddedDashboard publicId="sales-overview" />
 * </ServiceProvider>
 * ```
 */
export function ServiceProvider(props: ServiceProviderProps): ReactNode {
  const { tenantUrl, colorScheme, theme, locale, timezone, chat, data, queryClient, children } = props;
  const tenant = useMemo(() => checkTenant(tenantUrl), [tenantUrl]);
  const latestGetEmbedSession = useLatest(props.getEmbedSession);
  const hasGetEmbedSession = props.getEmbedSession !== undefined;
  const getEmbedSession = useMemo<GetEmbedSession | undefined>(
    () =>
      hasGetEmbedSession
        ? (request, options) => {
            const current = latestGetEmbedSession.current;
            if (!current)
              return Promise.reject(
                new ServiceConfigError(
                  process.env.NODE_ENV !== 'production'
                    ? 'ServiceProvider: `getEmbedSession` was removed'
                    : 'getEmbedSession',
                ),
              );
            return current(request, options);
          }
        : undefined,
    [hasGetEmbedSession, latestGetEmbedSession],
  );
  if (process.env.NODE_ENV !== 'production') {
    // A build-time constant: the hooks are the same on every render of a build. An inline theme
    // runs the effect on every render; the warning itself comes once per theme.
    // eslint-disable-next-line react-hooks/rules-of-hooks
    useEffect(() => warnThemeContrast(theme, colorScheme), [theme, colorScheme]);
  }
  const [ownQueryClient] = useState<{ current: QueryClient | undefined }>(() => ({ current: undefined }));
  const value = useMemo<ServiceContextValue>(
    () => ({
      tenantUrl,
      ...tenant,
      getEmbedSession,
      embedDefaults: { colorScheme, theme, locale, timezone },
      chat,
      data,
      queryClient,
      ownQueryClient,
    }),
    [tenantUrl, tenant, getEmbedSession, colorScheme, theme, locale, timezone, chat, data, queryClient, ownQueryClient],
  );
  return <ServiceContext.Provider value={value}>{children}</ServiceContext.Provider>;
}

/**
 * The nearest {@link ServiceProvider}'s value. Throws a `ServiceConfigError` naming the hook
 * outside one: "`useX` must be used within `<ServiceProvider>`".
 * @param hookName The public name of the calling hook or component, for the message.
 */
export function useServiceContext(hookName: string): ServiceContextValue {
  const value = useContext(ServiceContext);
  if (!value) throw new ServiceConfigError(`\`${hookName}\` must be used within <ServiceProvider>`);
  return value;
}

/** The nearest {@link ServiceProvider}'s value, or `null` outside one (for parts that also work standalone). */
export function useOptionalServiceContext(): ServiceContextValue | null {
  return useContext(ServiceContext);
}
