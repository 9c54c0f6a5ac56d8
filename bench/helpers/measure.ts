/**
 * What the benches measure with: CPU time and medians, so that a machine shared with other work
 * gives stable ratios.
 *
 * @module
 */

/**
 * Milliseconds of CPU time this process has used (Node), else of wall-clock time. Ratios are
 * taken in CPU time: on a shared machine another process taking the core mid-sample stretches
 * wall-clock time, not CPU time, and it stretches longer samples most. Nothing the benches time
 * waits on I/O, so on an idle machine the two clocks agree.
 */
export function cpuTime(): number {
  if (typeof process === 'undefined' || typeof process.cpuUsage !== 'function') return performance.now();
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
