/** Shared helpers of the server tests: real sockets only, no fetch mocks. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as a recording `fetch` saw it. */
export interface SeenRequest {
  method: string;
  url: string;
  authorization: string | null;
  body: string | undefined;
}

/**
 * The real `fetch`, recording every request it sends (and letting a test react to each answer).
 * It wraps the network, it does not replace it.
 */
export function recordingFetch(onResponse?: (request: SeenRequest, response: Response) => void): {
  fetch: typeof fetch;
  seen: SeenRequest[];
} {
  const seen: SeenRequest[] = [];
  const wrapped: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const body = init?.body === undefined || init.body === null ? undefined : String(init.body);
    const entry: SeenRequest = {
      method: request.method,
      url: request.url,
      authorization: request.headers.get('authorization'),
      body,
    };
    seen.push(entry);
    const response = await fetch(input, init);
    onResponse?.(entry, response);
    return response;
  };
  return { fetch: wrapped, seen };
}

/** A request a scripted server received. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A `node:http` server on 127.0.0.1 with a port of its own, answering with `handle`. */
export interface ScriptedServer {
  url: string;
  server: Server;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

/** Starts a scripted server; `handle` answers each request (the body is read first). */
export async function startScriptedServer(
  handle: (request: ReceivedRequest, res: ServerResponse, req: IncomingMessage) => void | Promise<void>,
): Promise<ScriptedServer> {
  const received: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: ReceivedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(request);
      void Promise.resolve(handle(request, res, req)).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers JSON. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Whatever was thrown (or `undefined` when nothing was). */
export async function caught(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  return undefined;
}
