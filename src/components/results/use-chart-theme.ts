/**
 * The colour scheme where a chart is drawn, read from the page's `--service-*` tokens and
 * `color-scheme` (and a brand's `--service-chart-font` and `--service-chart-accent`), and read
 * again when the theme changes (system preference or a `data-service-theme` attribute anywhere in
 * the document).
 *
 * @module
 */
import { useEffect, useState, type RefObject } from 'react';
import type { ChartTheme } from './vega';

const LIGHT: ChartTheme = { dark: false, text: '', muted: '', border: '' };

function readTheme(element: HTMLElement | null): ChartTheme {
  if (!element || typeof getComputedStyle !== 'function') return LIGHT;
  const style = getComputedStyle(element);
  const scheme = style.colorScheme || style.getPropertyValue('color-scheme');
  const token = (name: string) => style.getPropertyValue(name).trim();
  return {
    dark: /\bdark\b/.test(scheme) && !/\blight\b/.test(scheme),
    text: token('--service-color-text') || style.color,
    muted: token('--service-color-text-muted') || style.color,
    border: token('--service-color-border') || 'currentColor',
    // A brand theme's (ServiceProvider's `theme`), when one is set.
    font: token('--service-chart-font'),
    accent: token('--service-chart-accent'),
  };
}

const same = (a: ChartTheme, b: ChartTheme) =>
  a.dark === b.dark &&
  a.text === b.text &&
  a.muted === b.muted &&
  a.border === b.border &&
  a.font === b.font &&
  a.accent === b.accent;

/** The chart theme at `ref`, updated on theme changes. */
export function useChartTheme(ref: RefObject<HTMLElement | null>): ChartTheme | undefined {
  const [theme, setTheme] = useState<ChartTheme | undefined>(undefined);
  useEffect(() => {
    const update = () => {
      const next = readTheme(ref.current);
      setTheme((previous) => (previous && same(previous, next) ? previous : next));
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
