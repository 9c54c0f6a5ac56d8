/**
 * How the `service-emulator` CLI stops on SIGINT or SIGTERM: it closes the emulator (running
 * queries are interrupted) and exits 0. Two limits keep Ctrl+C from ever hanging: a close that
 * takes longer than {@link SHUTDOWN_DEADLINE_MS} exits 1 with a message, and a second signal
 * exits 130 at once.
 *
 * @module
 */

/** Longest wait for the emulator to close after a signal before the CLI exits anyway (1). */
export const SHUTDOWN_DEADLINE_MS = 5000;

/** What {@link stopOnSignals} needs from the process; the CLI passes `process`'s own. */
export interface ShutdownHost {
  on(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
  exit(code: number): void;
  write(text: string): void;
  writeError(text: string): void;
}

/** Options of {@link stopOnSignals}. */
export interface StopOnSignalsOptions {
  /** Default {@link SHUTDOWN_DEADLINE_MS}. */
  deadlineMs?: number;
}

/** Closes with `close` on the first SIGINT or SIGTERM and exits; see the module comment. */
export function stopOnSignals(
  close: () => Promise<void>,
  host: ShutdownHost,
  { deadlineMs = SHUTDOWN_DEADLINE_MS }: StopOnSignalsOptions = {},
): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      host.writeError(`${signal} again: exiting without waiting\n`);
      host.exit(130);
      return;
    }
    stopping = true;
    host.write(`\n${signal}: stopping (press Ctrl+C again to exit at once)\n`);
    const deadline = setTimeout(() => {
      host.writeError(`the emulator did not close within ${deadlineMs} ms: exiting\n`);
      host.exit(1);
    }, deadlineMs);
    close().then(
      () => {
        clearTimeout(deadline);
        host.exit(0);
      },
      (error: unknown) => {
        clearTimeout(deadline);
        host.writeError(`${String(error)}\n`);
        host.exit(1);
      },
    );
  };
  host.on('SIGINT', stop);
  host.on('SIGTERM', stop);
}
