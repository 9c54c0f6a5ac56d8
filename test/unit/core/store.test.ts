/**
 * The one store base of the core (`src/core/store.ts`): its listener set, its batching, and the
 * rule that every stateful object in `src/` is built on it rather than on a listener set of its own.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createNotifier, createSubscribable } from '../../../src/core/store';
import { SRC, sourceFiles } from '../../helpers/sources';

describe('createSubscribable', () => {
  it('calls each listener on notify until it unsubscribes, and its methods work unbound', () => {
    const { subscribe, notify } = createSubscribable();
    const first = vi.fn();
    const second = vi.fn();
    const stopFirst = subscribe(first);
    subscribe(second);
    notify();
    stopFirst();
    notify();
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(2);
  });
});

describe('createNotifier', () => {
  it('tells listeners once per batch, nested batches included, and at once outside one', () => {
    const notifier = createNotifier();
    const listener = vi.fn();
    notifier.subscribe(listener);
    notifier.batch(() => {
      notifier.changed();
      notifier.batch(() => notifier.changed());
      notifier.changed();
      expect(listener).not.toHaveBeenCalled();
    });
    expect(listener).toHaveBeenCalledTimes(1);
    notifier.changed();
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('schedules at most one notification at a time through its scheduler', () => {
    const queued: (() => void)[] = [];
    const notifier = createNotifier((notify) => queued.push(notify));
    const listener = vi.fn();
    notifier.subscribe(listener);
    notifier.changed();
    notifier.changed();
    expect(queued).toHaveLength(1);
    queued.shift()!();
    expect(listener).toHaveBeenCalledTimes(1);
    notifier.changed();
    expect(queued).toHaveLength(1);
  });
});

describe('one store base', () => {
  it('no module of src/ but the store base keeps a listener set of its own', () => {
    const offenders = sourceFiles()
      .filter((path) => !path.endsWith(join('core', 'store.ts')))
      .filter((path) => /new Set<\s*\(\)\s*=>\s*void\s*>/.test(readFileSync(path, 'utf8')))
      .map((path) => relative(SRC, path));
    expect(offenders).toEqual([]);
  });
});
