/**
 * The emulator's sense of time. Every expiry (5-minute embed sessions, 24-hour embed tokens,
 * ephemeral chat users, JWT `exp`) and the sweeping of expired records read `clock.now()`, never
 * `Date.now()` directly, so tests can move time forward instead of waiting. Relative date ranges
 * of the data API are not time: they resolve against the data's last day (`world.ts`).
 *
 * @module
 */

/** A source of the current time. */
export interface Clock {
  /** Current time in Unix milliseconds. */
  now(): number;
}

/** The real time. The default clock. */
export const systemClock: Clock = Object.freeze({ now: () => Date.now() });

/** A clock that only moves when told to. */
export interface ManualClock extends Clock {
  /** Sets the time, in Unix milliseconds. */
  set(time: number): void;
  /** Moves the time forward by `milliseconds` (backward when negative). */
  advance(milliseconds: number): void;
}

/**
 * A clock for tests: starts at `start` (Unix milliseconds; default the current time) and moves
 * only through `set` and `advance`. Pass it as `startEmulator({ clock })`.
 */
export function createManualClock(start: number = Date.now()): ManualClock {
  let time = start;
  return {
    now: () => time,
    set(next) {
      time = next;
    },
    advance(milliseconds) {
      time += milliseconds;
    },
  };
}
