/**
 * The colour scheme where a chart is drawn, read from the page's `--service-*` tokens and
 * `color-scheme`, and read again when the theme changes (system preference or a
 * `data-service-theme` attribute anywhere in the document).
 *
 * @module
 */
import { useEffect, useState, type RefObject } from 'react';
import { readChartTheme, sameTheme, type ChartTheme } from './chart-theme';

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
