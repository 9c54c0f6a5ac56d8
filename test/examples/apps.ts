/**
 * Helpers of the example-app tests: built apps run as processes of their own, a reverse proxy in
 * front of them, a real Chromium, and the checks a partner makes by hand in the first hour (the
 * dashboard becomes ready, a question gets an answer with a chart, Stop stops it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright';
import { expect } from 'vitest';
import { chromiumArgs, chromiumExecutable } from '../../scripts/ensure-browser.mjs';

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A process the test started, with what it printed. */
export interface RunningProcess {
  readonly output: () => string;
  stop(): Promise<void>;
}

/**
 * Runs `node <args>` in `cwd` (its own process group, so that what it starts ends with it) and
 * resolves once `url` answers HTTP; fails with the process's output if it exits or does not
 * answer within `timeoutMs`.
 */
export async function startProcess(
  args: string[],
  options: { cwd: string; env: Record<string, string>; url: string; timeoutMs?: number },
): Promise<RunningProcess> {
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...options.env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(-child.pid!, 'SIGTERM');
      const killer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
    }
  };
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited (${child.exitCode}):\n${output}`);
    try {
      await fetch(options.url, { signal: AbortSignal.timeout(2000) });
      return { output: () => output, stop };
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`${args.join(' ')} did not answer at ${options.url}:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** Runs `node <args>` to its end; throws with the output when it fails. */
export function run(args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: options.cwd,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${args.join(' ')} failed (${code}):\n${output}`)),
    );
  });
}

/** A request the proxy passed on. */
export interface ProxiedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

/** A reverse proxy for the tests. */
export interface ReverseProxy {
  /** Where the browser reaches the app: `http://localhost:<port>`, another origin than the app's own. */
  url: string;
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

/**
 * A reverse proxy as partners deploy one (nginx's `proxy_pass` with its default `Host`): the app
 * sees its own address in `Host`, and the address the browser used in `X-Forwarded-Host` and
 * `X-Forwarded-Proto`. Bodies stream both ways unbuffered. It also drops the `Sec-Fetch-*` headers,
 * as a browser without Fetch Metadata sends none (Safari before 16.4), so that the routes must
 * recognise their own pages by `Origin` and the forwarded headers alone.
 */
export async function startReverseProxy(target: string): Promise<ReverseProxy> {
  const upstream = new URL(target);
  const requests: ProxiedRequest[] = [];
  const server: Server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    const headers: IncomingHttpHeaders = { ...req.headers };
    for (const name of Object.keys(headers)) if (name.startsWith('sec-fetch-')) delete headers[name];
    headers['x-forwarded-host'] = req.headers.host;
    headers['x-forwarded-proto'] = 'http';
    headers['x-forwarded-for'] = req.socket.remoteAddress;
    headers.host = upstream.host;
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    res.on('close', () => forward.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}`,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * A page on another origin, as an attacker's site: `http://127.0.0.1:<port>/` serves `html`. To
 * the browser it is cross-site to `localhost` and same-site (another port) to `127.0.0.1`.
 */
export async function startForeignSite(html: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The Chromium of the browser tests (`scripts/ensure-browser.mjs`), headless. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumExecutable(), args: chromiumArgs });
}

/** What the page's `fetch` did with one chat stream request, recorded by {@link recordChatStreams}. */
interface StreamRecord {
  /** The body was read to its end. */
  done: boolean;
  /** The body was cancelled (by the reader or an abort) before its end. */
  cancelledBeforeDone: boolean;
  /** The request's signal was aborted at any time. */
  aborted: boolean;
}

/**
 * Wraps the page's `fetch` so that the test sees what the chat client does with each
 * `stream-chat-state` response: whether it read the body to its end, cancelled it, or aborted its
 * request. DevTools cannot tell: this Chromium reports a fully read streamed response that carries
 * `Cache-Control: no-store` (every answer of the routes does) as cancelled now and then, whoever
 * reads it.
 */
function recordChatStreams(): void {
  const records: StreamRecord[] = [];
  (window as unknown as { __chatStreams: StreamRecord[] }).__chatStreams = records;
  const original = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const response = await original(input, init);
    if (!url.includes('/chat/stream-chat-state') || !response.body) return response;
    const record: StreamRecord = { done: false, cancelledBeforeDone: false, aborted: false };
    records.push(record);
    init?.signal?.addEventListener('abort', () => {
      record.aborted = true;
      if (!record.done) record.cancelledBeforeDone = true;
    });
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const chunk = await reader.read();
        if (chunk.done) {
          record.done = true;
          controller.close();
        } else controller.enqueue(chunk.value);
      },
      cancel(reason) {
        if (!record.done) record.cancelledBeforeDone = true;
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** Unique labels of an SVG axis, read in the page: the month labels a viewer sees. */
async function visibleTexts(page: Page, frameSelector: string | undefined, selector: string): Promise<string[]> {
  const scope = frameSelector ? page.frameLocator(frameSelector) : page;
  return scope
    .locator(selector)
    .evaluateAll((nodes) =>
      nodes
        .filter((node) => getComputedStyle(node).opacity !== '0' && node.getAttribute('opacity') !== '0')
        .map((node) => node.textContent ?? ''),
    );
}

/**
 * What a partner checks by hand on the example page at `pageUrl`: the dashboard embed becomes
 * ready (its month chart labels each month once); a question gets a final answer with a chart
 * (whose month axis labels each month once), and its stream request is read to its end, not
 * cancelled; Stop ends the next answer `aborted`. No error reaches the page.
 */
export async function checkFirstHour(browser: Browser, pageUrl: string): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 2000 } });
  const page = await context.newPage();
  await page.addInitScript(recordChatStreams);
  const streams = () => page.evaluate(() => (window as unknown as { __chatStreams: StreamRecord[] }).__chatStreams);
  const pageErrors: string[] = [];
  const refused: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('response', (response) => {
    if (response.url().includes('/api/') && response.status() >= 400)
      refused.push(`${response.status()} ${response.url()}`);
  });
  try {
    await page.goto(pageUrl);
    const dashboard = page.locator('[data-service-embed="dashboard"]');
    await expect.poll(() => dashboard.getAttribute('data-state'), { timeout: 30_000 }).toBe('ready');
    const frame = '[data-service-embed="dashboard"] iframe';
    await page.frameLocator(frame).locator('svg[aria-label^="Revenue by month"]').waitFor({ timeout: 30_000 });
    const dashboardMonths = await visibleTexts(page, frame, 'svg[aria-label^="Revenue by month"] text.svc-tick');
    const monthLabels = dashboardMonths.filter((text) => /^[A-Z][a-z]{2} \d{4}$/.test(text));
    expect(monthLabels.length).toBeGreaterThan(1);
    expect(new Set(monthLabels).size).toBe(monthLabels.length);

    const chat = page.locator('[data-part="chat"]');
    const question = page.getByRole('textbox', { name: 'Ask a question' });
    await question.fill('Show revenue by month in 2025');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => chat.getAttribute('data-state'), { timeout: 60_000 }).toBe('ready');
    await page.locator('[data-part="final-answer"]').first().waitFor();
    const chart = page.locator('[data-part="chart"]').first();
    await expect.poll(() => chart.getAttribute('data-state'), { timeout: 30_000 }).toBe('ready');
    const chartMonths = (await visibleTexts(page, undefined, '[data-part="chart"] svg text')).filter((text) =>
      /^[A-Z][a-z]{2} \d{4}$/.test(text),
    );
    expect(chartMonths.length).toBeGreaterThan(1);
    expect(new Set(chartMonths).size, chartMonths.join(', ')).toBe(chartMonths.length);
    // The completed answer's body was read to its end, and its request neither cancelled nor aborted.
    await expect.poll(streams).toEqual([{ done: true, cancelledBeforeDone: false, aborted: false }]);

    await question.fill('Who are our top 10 customers?');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => chat.getAttribute('data-state'), { timeout: 30_000 }).toBe('streaming');
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect.poll(() => chat.getAttribute('data-state'), { timeout: 30_000 }).toBe('aborted');
    expect(refused).toEqual([]);
    expect(pageErrors).toEqual([]);
  } finally {
    await context.close();
  }
}
