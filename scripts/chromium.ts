/**
 * The Chromium the browser tests drive and its flags, for TypeScript callers (tests that launch
 * Playwright themselves). The search lives in `ensure-browser.mjs`, which plain Node runs before
 * the browser projects: `CHROMIUM_PATH`, then Debian's `/usr/bin/chromium`, then a Chromium that
 * Playwright installed.
 */
export { chromiumArgs, chromiumExecutable, findChromium } from './ensure-browser.mjs';
export type { FoundChromium } from './ensure-browser.mjs';
