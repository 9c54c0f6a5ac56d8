/**
 * `useThemeTokens`: the native chat's share of `ServiceProvider`'s `theme` (see theme.ts).
 *
 * @module
 */
import { useEffect, useMemo, type CSSProperties } from 'react';
import type { EmbedTheme } from '../core/protocol/embed';
import { useOptionalServiceContext } from './context';
import { themeTokens, warnThemeContrast } from './theme';

/**
 * The chat's tokens: `ServiceProvider`'s `theme` with `own` over it, field by field (the chat's
 * own prop wins), as a `style` object; warns in development about contrast.
 */
export function useThemeTokens(own?: EmbedTheme): CSSProperties {
  const context = useOptionalServiceContext();
  const provided = context?.embedDefaults.theme;
  const colorScheme = context?.embedDefaults.colorScheme;
  const key = JSON.stringify([provided, own]);
  const theme = useMemo<EmbedTheme | undefined>(
    () => (provided || own ? { ...provided, ...own } : undefined),
    // The key stands for both: a theme written inline is a new object on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [key],
  );
  if (process.env.NODE_ENV !== 'production') {
    // A build-time constant: the hooks are the same on every render of a build.
    // eslint-disable-next-line react-hooks/rules-of-hooks
    useEffect(() => warnThemeContrast(theme, colorScheme), [theme, colorScheme]);
  }
  return useMemo(() => themeTokens(theme) as CSSProperties, [theme]);
}
