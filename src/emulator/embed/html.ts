/**
 * The HTML shell of every embed page: the stylesheet, the {@link EmbedPageConfig} as a JSON data
 * block, the page script, and, when the page cannot mount, its error already on screen (so it
 * shows even before, or without, the script).
 *
 * The shell holds no inline script or style, so its Content-Security-Policy
 * ({@link PAGE_CONTENT_SECURITY_POLICY}) can forbid both.
 *
 * @module
 */
import { resolveLocale } from '../../core/protocol/embed';
import { CONFIG_ELEMENT_ID, type EmbedPageConfig } from './config';
import { stringsFor } from './strings';

/**
 * CSP of the pages: scripts and styles only from the emulator's own files, requests only to its
 * own origin (data API, chat), framing by any page (the emulator runs on loopback for whoever
 * embeds it; the service restricts this to the account's allowed domains).
 */
export const PAGE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: http: https:",
  "connect-src 'self'",
  "font-src 'self' data:",
  'frame-ancestors *',
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * JSON that is safe inside `<script type="application/json">`: `<` is escaped so that no value
 * can close the element, and the two JavaScript line terminators for good measure.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Options of {@link renderPage}. */
export interface RenderPageOptions {
  config: EmbedPageConfig;
  /** The `locale` URL parameter, if any (decides the language of the error and `lang`). */
  locale: string | undefined;
  /** Addresses of the page script and stylesheet. */
  scriptUrl: string;
  stylesUrl: string;
  /** Document title. */
  title: string;
}

/** The page's HTML. */
export function renderPage(options: RenderPageOptions): string {
  const { config } = options;
  const locale = resolveLocale(options.locale ?? config.defaultLocale);
  const strings = stringsFor(locale);
  const body = config.error
    ? `<div role="alert" class="svc-error" data-part="error"><h1 class="svc-title">${escapeHtml(strings.errorTitle)}</h1><p>${escapeHtml(config.error.display)}</p></div>`
    : `<p role="status" class="svc-muted">${escapeHtml(strings.loading)}</p>`;
  return `<!doctype html>
<html lang="${escapeHtml(locale)}" data-color-scheme="light">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(options.title)}</title>
<link rel="stylesheet" href="${escapeHtml(options.stylesUrl)}">
<script type="application/json" id="${CONFIG_ELEMENT_ID}">${scriptJson(config)}</script>
<script src="${escapeHtml(options.scriptUrl)}" defer></script>
</head>
<body>
<main id="svc-root">${body}</main>
</body>
</html>
`;
}
