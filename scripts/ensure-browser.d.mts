/** Types for `ensure-browser.mjs`, so that `scripts/chromium.ts` can share its search. */

/** A Chromium found on this machine and where the search found it. */
export interface FoundChromium {
  /** Absolute path of the executable. */
  path: string;
  /** `CHROMIUM_PATH`, `Debian package` or `Playwright cache`. */
  source: string;
}

/**
 * The Chromium to drive: `CHROMIUM_PATH` (throws when it names a missing file), then
 * `/usr/bin/chromium`, then a Chromium that Playwright installed. `undefined` when none is found.
 */
export function findChromium(): FoundChromium | undefined;

/** The Chromium that Playwright installed into its cache, if any. */
export function findPlaywrightChromium(): string | undefined;

/** Flags that keep Chromium quiet on a machine with no network and no GPU. */
export const chromiumArgs: string[];

/** `findChromium()?.path`: `undefined` lets Playwright look for its own browser. */
export function chromiumExecutable(): string | undefined;
