/**
 * Fault injection of the emulator's Chat API, for tests of clients: what a flaky network, a
 * restarting service or a failing backend look like, on demand.
 *
 * Directives, in the `x-emulator-fault` request header or the `chatFault` option of
 * `startEmulator()` (the header replaces the option), separated by `,` or `;`:
 *
 * | directive | effect |
 * |---|---|
 * | `delay=<ms>` | wait before answering at all |
 * | `status=<code>` | answer HTTP `<code>` (400 to 599) with `{"error":"Injected fault: HTTP <code>"}` (500: as `server-error`); nothing runs |
 * | `server-error` | answer 500 `{"error":"Internal server error (injected fault)"}`; nothing runs |
 * | `cut-after=<n>` | destroy the connection after `<n>` lines of this response (the run goes on) |
 * | `suspend-after=<n>` | after `<n>` lines, send `__suspended__` and end the response; the run pauses until the same body is sent again, which replays then continues |
 * | `error-after=<n>` | after `<n>` lines, send `{"error":"Injected fault: stream error"}` and end the response (the run goes on) |
 * | `hold-after=<n>` | after `<n>` lines the run waits, this response open, until the thread gets another request that joins the run, or an abort: makes "while streaming" deterministic |
 *
 * Line counts include `__cutoff__`. `status`, `server-error` and `delay` apply to abort requests
 * too; the others only to streamed answers.
 *
 * @module
 */
import { CHAT_STREAM_PATH } from '../../core/protocol/chat';

/** Request header carrying fault directives. */
export const CHAT_FAULT_HEADER = 'x-emulator-fault';

/** Parsed fault directives of one request. */
export interface ChatFaults {
  delayMs?: number;
  status?: number;
  cutAfter?: number;
  suspendAfter?: number;
  errorAfter?: number;
  holdAfter?: number;
}

/** Directives with a whole-number argument, and the field each sets. */
const COUNT_DIRECTIVES = {
  delay: 'delayMs',
  'cut-after': 'cutAfter',
  'suspend-after': 'suspendAfter',
  'error-after': 'errorAfter',
  'hold-after': 'holdAfter',
} as const satisfies Record<string, keyof ChatFaults>;

/** Parse result: the faults, or why the text is not valid. */
export type ParsedChatFaults = { ok: true; faults: ChatFaults } | { ok: false; problem: string };

/** Parses directives such as `cut-after=5, delay=100`. Empty text means no faults. */
export function parseChatFaults(text: string | undefined): ParsedChatFaults {
  const faults: ChatFaults = {};
  if (text === undefined) return { ok: true, faults };
  for (const raw of text.split(/[,;]/)) {
    const directive = raw.trim();
    if (directive === '') continue;
    const [name = '', value, ...rest] = directive.split('=').map((part) => part.trim());
    if (name === 'server-error' && value === undefined) {
      faults.status = 500;
      continue;
    }
    const number = value === undefined || rest.length > 0 || !/^\d+$/.test(value) ? undefined : Number(value);
    if (name === 'status') {
      if (number === undefined || number < 400 || number > 599) {
        return { ok: false, problem: `${CHAT_FAULT_HEADER}: "${directive}": status must be a code from 400 to 599` };
      }
      faults.status = number;
      continue;
    }
    // Own keys only: `constructor`, `__proto__` or `toString` are not directives.
    if (Object.hasOwn(COUNT_DIRECTIVES, name)) {
      if (number === undefined)
        return {
          ok: false,
          problem: `${CHAT_FAULT_HEADER}: "${directive}": ${name} needs a whole number, e.g. ${name}=3`,
        };
      faults[COUNT_DIRECTIVES[name as keyof typeof COUNT_DIRECTIVES]] = number;
      continue;
    }
    return {
      ok: false,
      problem: `${CHAT_FAULT_HEADER}: unknown directive "${directive}"; use delay=<ms>, status=<code>, server-error, cut-after=<n>, suspend-after=<n>, error-after=<n> or hold-after=<n>`,
    };
  }
  return { ok: true, faults };
}

/** The answer of `status=<code>` and `server-error`. */
export function injectedStatusBody(status: number): { error: string } {
  return { error: status === 500 ? 'Internal server error (injected fault)' : `Injected fault: HTTP ${status}` };
}

/** The `{"error"}` line of `error-after=<n>`. */
export const INJECTED_STREAM_ERROR = 'Injected fault: stream error';

/**
 * A `fetch` that sends `fault` (directives as in the table above, such as `cut-after=5` or
 * `status=503`) in {@link CHAT_FAULT_HEADER} with the first chat stream request only, and nothing
 * with the requests after it: the client's resend after a dropped connection or `__suspended__`,
 * or a Retry, then goes through clean, as against a service that recovered. Fetch-standard only (no
 * Node API), so it works in browsers: pass it as the `fetch` of `createChatClient` or
 * `useAgentChat` talking to the emulator directly or through a host route that passes the header on.
 *
 * @param fault The directives, for example `'hold-after=6'`.
 * @param baseFetch The `fetch` that sends the requests. Default: the global `fetch`, looked up at each call.
 */
export function fetchWithFaultOnce(fault: string, baseFetch?: typeof fetch): typeof fetch {
  let used = false;
  return (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    if (!used && new URL(url, 'http://relative.invalid').pathname.endsWith(CHAT_STREAM_PATH)) {
      used = true;
      headers.set(CHAT_FAULT_HEADER, fault);
    }
    return (baseFetch ?? fetch)(input, { ...init, headers });
  };
}
