/**
 * The state of one embed page that every view reads: locale, time zone, filters, switches, the
 * data client and the messenger. Views render from it and ask it to change; `main.ts` owns it.
 *
 * @module
 */
import type { DataClient } from '../../../core/data-client';
import type { LoadQuery, LoadResponse } from '../../../core/protocol/data';
import type { SupportedLocale, Surface } from '../../../core/protocol/embed';
import type { EmbedPageConfig, EmbedSwitches } from '../config';
import type { FilterCondition } from '../filters';
import type { EmbedStrings } from '../strings';
import type { Formatter } from './format';
import type { Messenger } from './messaging';

/** A widget query's state in the page's cache. */
export type QueryState =
  | { status: 'loading'; key: string }
  | { status: 'ready'; key: string; result: LoadResponse }
  | { status: 'error'; key: string; message: string };

/** The page. */
export interface PageContext {
  readonly config: EmbedPageConfig;
  readonly surface: Surface;
  readonly messenger: Messenger;
  readonly data: DataClient;
  readonly locale: SupportedLocale;
  readonly strings: EmbedStrings;
  readonly timezone: string;
  readonly format: Formatter;
  readonly allowExport: boolean;
  readonly switches: EmbedSwitches;
  /** Dashboard filters: member to condition (URL `f_`, filter widgets, `set-filter`). */
  readonly filters: Map<string, FilterCondition>;
  /** Time grains: time dimension to granularity (URL `tg_`, time grain widgets). */
  readonly timeGrains: Map<string, string>;
  /** Current in-embed path. */
  readonly path: string;
  /** When the queries last finished, epoch ms; `null` before the first load. */
  readonly refreshedAt: number | null;
  readonly refreshCount: number;
  /**
   * The state of a widget's query (with the page's filters, grains and time zone applied);
   * starts it when it is not cached. `onSettled` runs when a query started or joined here ends.
   */
  query(widgetId: string, query: LoadQuery, onSettled: () => void): QueryState;
  /** Goes to an in-embed path, as a viewer's click does (posts `navigate` and `view`). False when unknown. */
  navigate(path: string): boolean;
  /** Changes a filter (`undefined` clears it) and re-renders. */
  setFilter(member: string, condition: FilterCondition | undefined): void;
  /** Changes a time grain and re-renders. */
  setTimeGrain(member: string, grain: string): void;
  /** Re-runs every query of the view. */
  refresh(): void;
  /** Re-renders the current view. */
  render(): void;
  /** Reports a change to the debug echo (see `ECHO_PARAMETER`). */
  changed(reason: string): void;
}
