/** Schemes a link or image in agent-written markdown may use; everything else is dropped. */
const SAFE_SCHEME = /^(?:https?|mailto):/i;

/**
 * The URL itself when it is an absolute `http:`, `https:` or `mailto:` URL, else `undefined`.
 *
 * Markdown URLs reach this after the parser has decoded entities and escapes and percent-encoded
 * whitespace and control characters, so `&#106;avascript:`, `JaVaScRiPt:` and `java\tscript:` all
 * arrive in a form that fails here. The scheme must stand at the very start (no leading space or
 * control character for a browser to strip), and the whole string must parse as a URL with that
 * same scheme. Relative URLs are dropped too: in a partner's app they would point at the host's
 * own pages, which agent output has no business linking to.
 */
export function safeUrl(url: string): string | undefined {
  if (!SAFE_SCHEME.test(url)) return undefined;
  try {
    const parsed = new URL(url);
    return SAFE_SCHEME.test(parsed.protocol) ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The image URL when it is `http:` or `https:` and its origin is one the host allows, else
 * `undefined`. An image is a request the reader's browser makes on the agent's say-so (a tracking
 * pixel, a request into the partner's network), so none is made unless the host opted in.
 */
export function allowedImageUrl(url: string, allowedOrigins: readonly string[]): string | undefined {
  if (allowedOrigins.length === 0 || !/^https?:/i.test(url) || safeUrl(url) === undefined) return undefined;
  const origin = new URL(url).origin;
  return allowedOrigins.some((allowed) => originOf(allowed) === origin) ? url : undefined;
}

/** `https://cdn.example.com/` and `https://cdn.example.com` name the same origin. */
function originOf(allowed: string): string | undefined {
  try {
    return new URL(allowed).origin;
  } catch {
    return undefined;
  }
}
