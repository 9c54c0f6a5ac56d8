/**
 * The colour scheme where a chart is drawn, read from the page's `--service-*` tokens and
 * `color-scheme` (and a brand's `--service-chart-font` and `--service-chart-accent`), and read
 * again when the theme changes (system preference or a `data-service-theme` attribute anywhere in
 * the document).
 *
 * @module
 */
import { useEffect, useState, type RefObject } from 'react';

/** The tokens a chart is drawn with, read from the page (`readChartTheme`). */
export interface ChartTheme {
  /** The colour scheme is dark. */
  dark: boolean;
  /** `--service-chart-text`: axis and legend labels, titles. */
  text: string;
  /** `--service-color-text-muted`: subtitles. */
  muted: string;
  /** `--service-color-border`: the view's frame in dark mode. */
  border: string;
  /** `--service-chart-grid`. Default `#e6e8ec`. */
  grid?: string;
  /** `--service-chart-axis`: axis lines and ticks. Default `#c5cad3`. */
  axis?: string;
  /** `--service-chart-palette`: series colours, the first for a single series. Default the official palette. */
  palette?: readonly string[];
  /** `--service-chart-font-family`. Default the official chart font. */
  font?: string;
  /** `--service-chart-font-size` in pixels: labels. Default 11. */
  fontSize?: number;
  /** `--service-chart-title-font-size` in pixels: the chart's title. Default 13. */
  titleFontSize?: number;
  /** Locale of compact numbers. Default the page's. */
  locale?: string;
  /**
   * `--service-chart-font`: a brand's font (`ServiceProvider`'s `theme.font`), over the spec's own
   * style in light mode too. Unset by default.
   */
  brandFont?: string;
  /**
   * `--service-chart-accent`: a brand's colour (`theme.primaryColor`): a single series' colour and
   * the first of the palette, over the spec's own style. Unset by default.
   */
  accent?: string;
}

// The official label colour (`DEFAULT_CHART_STYLE.labelColor`), written out: a property read at
// module level would keep the style object in every bundle that imports the package.
const LIGHT_DEFAULT: ChartTheme = { dark: false, text: '#43436B', muted: '#5b6270', border: '#d5d9e0' };

/** Reads the chart tokens at `element` (its scheme from `color-scheme`); defaults when none are set. */
export function readChartTheme(element: HTMLElement | null): ChartTheme {
  if (!element || typeof getComputedStyle !== 'function') return LIGHT_DEFAULT;
  const style = getComputedStyle(element);
  const scheme = style.colorScheme || style.getPropertyValue('color-scheme');
  const token = (name: string) => style.getPropertyValue(name).trim();
  const pixels = (name: string) => {
    const value = Number.parseFloat(token(name));
    return Number.isFinite(value) && value > 0 ? value : undefined;
  };
  const palette = token('--service-chart-palette')
    .split(/[\s,]+/)
    .filter(Boolean);
  const theme: ChartTheme = {
    dark: /\bdark\b/.test(scheme) && !/\blight\b/.test(scheme),
    text: token('--service-chart-text') || token('--service-color-text') || style.color,
    muted: token('--service-color-text-muted') || style.color,
    border: token('--service-color-border') || 'currentColor',
    // A brand theme's (ServiceProvider's `theme`), when one is set.
    font: token('--service-chart-font'),
    accent: token('--service-chart-accent'),
  };
  const optional = {
    grid: token('--service-chart-grid'),
    axis: token('--service-chart-axis'),
    font: token('--service-chart-font-family'),
    fontSize: pixels('--service-chart-font-size'),
    titleFontSize: pixels('--service-chart-title-font-size'),
    palette: palette.length > 0 ? palette : undefined,
    locale: element.closest('[lang]')?.getAttribute('lang') || undefined,
    brandFont: token('--service-chart-font'),
    accent: token('--service-chart-accent'),
  };
  for (const [key, value] of Object.entries(optional))
    if (value !== undefined && value !== '') (theme as unknown as Record<string, unknown>)[key] = value;
  return theme;
}

/** True when two themes draw the same chart. */
export function sameTheme(a: ChartTheme, b: ChartTheme): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The chart theme at `ref`, updated on theme changes. */
export function useChartTheme(ref: RefObject<HTMLElement | null>): ChartTheme | undefined {
  const [theme, setTheme] = useState<ChartTheme | undefined>(undefined);
  useEffect(() => {
    const update = () => {
      const next = readChartTheme(ref.current);
      setTheme((previous) => (previous && sameTheme(previous, next) ? previous : next));
    };
    update();
    const media = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : undefined;
    media?.addEventListener('change', update);
    const observer = typeof MutationObserver === 'function' ? new MutationObserver(update) : undefined;
    observer?.observe(document.documentElement, {
      attributes: true,
      attributeFilter: ['data-service-theme'],
      subtree: true,
    });
    return () => {
      media?.removeEventListener('change', update);
      observer?.disconnect();
    };
  }, [ref]);
  return theme;
}
