/**
 * `service-emulator [--port N] [--host H] [--chat-pace realistic|instant] [--query-timeout MS]`: starts the emulator, prints
 * its URLs, keys and world, and stays up until SIGINT or SIGTERM (running queries are interrupted;
 * `shutdown.ts` bounds the wait).
 *
 * @module
 */
import { API_KEYS, DEPLOYMENTS, WORKBOOKS, startEmulator, type ChatPace } from './index';
import { stopOnSignals } from './shutdown';

const USAGE = `Usage: service-emulator [--port N] [--host H] [--chat-pace realistic|instant] [--query-timeout MS]

  --port N   TCP port (default 4010; 0 picks a free port)
  --host H   loopback interface: 127.0.0.1 (default), localhost or ::1
  --chat-pace realistic|instant
             how fast the agent streams: an answer in a few seconds (default), or at once
  --query-timeout MS
             longest run of a /v1/cubesql query in milliseconds (default 30000)
  --help     show this help`;

function parseArgs(
  argv: readonly string[],
): { port: number; host: string; chatPace: ChatPace; queryTimeoutMs?: number } | 'help' {
  let port = 4010;
  let host = '127.0.0.1';
  let chatPace: ChatPace = 'realistic';
  let queryTimeoutMs: number | undefined;
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index]!;
    const [flag, inline] = argument.includes('=')
      ? (argument.split('=', 2) as [string, string])
      : [argument, undefined];
    const value = () => {
      const next = inline ?? argv[(index += 1)];
      if (next === undefined) throw new Error(`${flag} needs a value`);
      return next;
    };
    if (flag === '--help' || flag === '-h') return 'help';
    else if (flag === '--port' || flag === '-p') {
      const text = value();
      port = Number(text);
      if (!/^\d+$/.test(text) || port > 65535) throw new Error(`--port must be a number from 0 to 65535 (got ${text})`);
    } else if (flag === '--host') host = value();
    else if (flag === '--chat-pace') {
      const text = value();
      if (text !== 'realistic' && text !== 'instant')
        throw new Error(`--chat-pace must be realistic or instant (got ${text})`);
      chatPace = text;
    } else if (flag === '--query-timeout') {
      const text = value();
      queryTimeoutMs = Number(text);
      if (!/^[1-9]\d*$/.test(text))
        throw new Error(`--query-timeout must be a positive number of milliseconds (got ${text})`);
    } else throw new Error(`Unknown option ${argument}`);
  }
  return { port, host, chatPace, ...(queryTimeoutMs === undefined ? {} : { queryTimeoutMs }) };
}

async function main(): Promise<void> {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const started = performance.now();
  const emulator = await startEmulator(options);
  const lines = [
    `service emulator ready in ${Math.round(performance.now() - started)} ms`,
    '',
    `  base_url   ${emulator.url}`,
    `  ai_url     ${emulator.aiUrl}`,
    ...DEPLOYMENTS.map(
      (deployment) =>
        `  data_url   ${emulator.url}/data/${deployment.id}   (deployment ${deployment.id}: ${deployment.name})`,
    ),
    '',
    '  API keys',
    ...API_KEYS.map((key) => `    ${key.key}   ${key.label}`),
    '',
    '  dashboards (publicId)',
    ...WORKBOOKS.flatMap((workbook) =>
      workbook.dashboard
        ? [`    ${workbook.dashboard.publicId}${workbook.dashboard.allowEmbed ? '' : '   (embedding not allowed)'}`]
        : [],
    ),
    '',
    'Press Ctrl+C to stop.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);

  stopOnSignals(() => emulator.close(), {
    on: (signal, listener) => process.on(signal, listener),
    exit: (code) => process.exit(code),
    write: (text) => process.stdout.write(text),
    writeError: (text) => process.stderr.write(text),
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`service-emulator: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
