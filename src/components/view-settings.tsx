/**
 * The one context through which a view's settings reach the views nested in it: the labels (one
 * flat set of strings and functions, each view taking the keys it knows) and the options nested
 * views need (`allowedImageOrigins` for markdown, the `locale` of numbers and dates). `AgentChat`
 * provides it, so a translated chat translates its SQL view, table, chart and markdown too.
 *
 * A view's own props win over the context, which wins over the view's defaults.
 *
 * @module
 */
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { named } from './part';

/** What {@link ViewSettingsProvider} shares. */
export interface ViewSettings {
  /** Labels of any view below, by key (each view reads the keys of its own defaults). */
  readonly labels: Readonly<Record<string, unknown>>;
  /** Origins images in markdown may load from (see `StreamingMarkdown`'s prop of the same name). */
  readonly allowedImageOrigins?: readonly string[];
  /** Locale of numbers and dates, a BCP-47 tag; `undefined`: the browser's. */
  readonly locale?: string;
}

const NONE: ViewSettings = { labels: {} };

const ViewSettingsContext = /*#__PURE__*/ named(
  /*#__PURE__*/ createContext<ViewSettings>(NONE),
  'ServiceViewSettingsContext',
);

/** Gives the views below `settings` (labels and options). Renders no element. */
export function ViewSettingsProvider({ settings, children }: { settings: ViewSettings; children?: ReactNode }) {
  return <ViewSettingsContext.Provider value={settings}>{children}</ViewSettingsContext.Provider>;
}

/** The settings of the nearest {@link ViewSettingsProvider}; none outside one. */
export function useViewSettings(): ViewSettings {
  return useContext(ViewSettingsContext);
}

/** True when both objects have the same own entries (by `Object.is`). */
export function sameEntries(a: object | undefined, b: object | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && Object.is(a[key as keyof object], b[key as keyof object]))
  );
}

/**
 * `value`, or the object of the previous render when its entries are the same: a prop given as an
 * inline literal must not re-render everything below on every render.
 */
export function useStableEntries<T extends object | undefined>(value: T): T {
  const [cache, setCache] = useState<{ value: T }>({ value });
  if (sameEntries(cache.value, value)) return cache.value;
  // State derived during render: React renders again at once with it, before any child sees it.
  setCache({ value });
  return value;
}

/**
 * A view's labels: its `defaults`, then the same keys of the nearest labels context, then its own
 * `labels` prop. The same object while none of them changes.
 */
export function useLabels<L extends object>(defaults: L, own: Partial<L> | undefined): L {
  const shared = useContext(ViewSettingsContext).labels;
  const stableOwn = useStableEntries(own);
  return useMemo(() => {
    let merged: L | undefined;
    for (const key of Object.keys(defaults)) {
      if (!Object.hasOwn(shared, key)) continue;
      merged ??= { ...defaults };
      (merged as Record<string, unknown>)[key] = shared[key];
    }
    if (!stableOwn) return merged ?? defaults;
    return { ...(merged ?? defaults), ...stableOwn };
  }, [defaults, shared, stableOwn]);
}

/** A formatter of numbers in `locale`, else the locale of the nearest view settings (the browser's by default). */
export function useFormatNumber(given?: string): (value: number) => string {
  const shared = useContext(ViewSettingsContext).locale;
  const locale = given ?? shared;
  return useMemo(() => {
    const numbers = new Intl.NumberFormat(locale);
    return (value: number) => numbers.format(value);
  }, [locale]);
}
