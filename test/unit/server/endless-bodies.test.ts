// @vitest-environment node
/**
 * Request bodies that never end, over real sockets (`toNodeHandler` on `node:http`): the route
 * answers as soon as it has seen enough (413 once the limit is crossed, 415 unread), the client
 * gets that answer while it is still sending, and the server then closes the connection instead
 * of reading the body forever.
 */
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createChatProxyHandler, createSessionHandler, toNodeHandler, type RouteHandler } from '../../../src/server';
import { ENDLESS_BODIES } from '../../helpers/hostile-corpus';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** The routes under test; the service behind them is never reached (port 9 refuses). */
const ROUTES: Record<(typeof ENDLESS_BODIES)[number]['route'], { path: string; handler: RouteHandler }> = {
  chat: {
    path: '/api/service/chat/stream-chat-state',
    handler: createChatProxyHandler({
      aiUrl: 'http://127.0.0.1:9/api/v1/public/acme/agents/1',
      apiKey: 'test-key',
      resolveSessionSettings: () => ({ externalId: 'ann@partner.example' }),
    }),
  },
  session: {
    path: '/api/embed-session',
    handler: createSessionHandler({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'test-key',
      deploymentId: 1,
      resolve: () => ({ externalId: 'ann@partner.example' }),
    }),
  },
};

async function serve(handler: RouteHandler, lingerMs = 200): Promise<number> {
  const node = toNodeHandler(handler, { lingerMs });
  const server = createServer((req, res) => void node(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return (server.address() as AddressInfo).port;
}

/**
 * Posts a chunked body that never ends (`start`, then `chunk` for as long as the socket takes
 * bytes); resolves with what came back once the server closed the connection.
 */
function postForever(port: number, path: string, body: (typeof ENDLESS_BODIES)[number]): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let open = true;
    const closed = () => {
      open = false;
      resolve(answer);
    };
    socket.on('data', (data: Buffer) => (answer += data.toString('utf8')));
    socket.on('close', closed);
    // A reset after the answer is a close too: what matters is what came before it.
    socket.on('error', () => undefined);
    const frame = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: ${body.contentType}\r\n` +
        `Transfer-Encoding: chunked\r\n\r\n${body.start ? frame(body.start) : ''}`,
    );
    const next = frame(body.chunk);
    const pump = () => {
      while (open && !socket.destroyed && socket.write(next));
      if (open && !socket.destroyed) socket.once('drain', pump);
    };
    pump();
  });
}

describe('request bodies that never end', () => {
  for (const body of ENDLESS_BODIES) {
    it(`${body.name}: ${body.status} while the client sends, then the connection closes`, async () => {
      const { path, handler } = ROUTES[body.route];
      const answer = await postForever(await serve(handler), path, body);
      expect(answer.slice(0, answer.indexOf('\r\n'))).toBe(`HTTP/1.1 ${body.status} ${statusText(body.status)}`);
      expect(answer).toContain(`"code":"${body.code}"`);
    });
  }

  it('a client that sends its whole oversize body before it reads anything gets the 413, not a reset', async () => {
    // More than the limit plus what the sockets on both sides can buffer: the server must read on.
    const total = 32 * 1024 * 1024;
    const port = await serve(ROUTES.chat.handler, 15_000);
    const outcome = await new Promise<{ sent: boolean; answer: string }>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      // Nothing is read until the whole body is out, as a client that writes, then reads.
      socket.pause();
      let answer = '';
      socket.on('error', () => undefined);
      socket.on('close', () => resolve({ sent: false, answer }));
      const chunk = 'x'.repeat(64 * 1024);
      const frame = `${chunk.length.toString(16)}\r\n${chunk}\r\n`;
      socket.write(
        `POST ${ROUTES.chat.path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
          'Transfer-Encoding: chunked\r\n\r\n6\r\n{"a":"\r\n',
      );
      let sent = 0;
      const pump = () => {
        while (sent < total) {
          sent += chunk.length;
          if (!socket.write(frame)) return void socket.once('drain', pump);
        }
        socket.write('0\r\n\r\n', () => {
          socket.on('data', (data: Buffer) => {
            answer += data.toString('utf8');
            if (answer.endsWith('\r\n0\r\n\r\n')) resolve({ sent: true, answer });
          });
          socket.resume();
        });
      };
      pump();
    });
    expect(outcome.sent).toBe(true);
    expect(outcome.answer).toMatch(/^HTTP\/1\.1 413 /);
  }, 30_000);

  it('a body that ends during the linger keeps the connection for the next request', async () => {
    const port = await serve(ROUTES.session.handler);
    const answers = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let text = '';
      socket.on('data', (data: Buffer) => {
        text += data.toString('utf8');
        if ((text.match(/HTTP\/1\.1 /g) ?? []).length === 2) {
          socket.destroy();
          resolve(text);
        }
      });
      const big = 'x'.repeat(20 * 1024);
      const request = (body: string) =>
        `POST /api/embed-session HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
      // Declared too large: answered before a byte of it is read; the body still comes, whole.
      socket.write(request(`{"padding":"${big}"}`));
      socket.write(request('[1]'));
    });
    expect(answers.match(/HTTP\/1\.1 \d+/g)).toEqual(['HTTP/1.1 413', 'HTTP/1.1 400']);
  });
});

function statusText(status: number): string {
  return status === 413 ? 'Payload Too Large' : 'Unsupported Media Type';
}
