import { act, render } from '@testing-library/react';
import { StrictMode, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { useStore, type ExternalStore } from '../../../src/react';

/** A minimal core-style store: bound methods, a new snapshot object only on change. */
function createCounter(): ExternalStore<{ count: number; other: number }> & {
  inc(): void;
  touchOther(): void;
  listeners: () => number;
} {
  let snapshot = { count: 0, other: 0 };
  const listeners = new Set<() => void>();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
    inc() {
      snapshot = { ...snapshot, count: snapshot.count + 1 };
      listeners.forEach((l) => l());
    },
    touchOther() {
      snapshot = { ...snapshot, other: snapshot.other + 1 };
      listeners.forEach((l) => l());
    },
    listeners: () => listeners.size,
  };
}

describe('useStore', () => {
  it('renders the snapshot and follows changes', () => {
    const store = createCounter();
    function View() {
      return <span>{useStore(store).count}</span>;
    }
    const { container } = render(<View />);
    expect(container.textContent).toBe('0');
    act(() => store.inc());
    expect(container.textContent).toBe('1');
  });

  it('with a selector, re-renders only when the selection changes, even with an inline selector', () => {
    const store = createCounter();
    let renders = 0;
    function View() {
      renders += 1;
      const count = useStore(store, (s) => s.count);
      return <span>{count}</span>;
    }
    render(<View />);
    const before = renders;
    act(() => store.touchOther());
    expect(renders).toBe(before);
    act(() => store.inc());
    expect(renders).toBe(before + 1);
  });

  it('keeps the identity of an equal selection with isEqual', () => {
    const store = createCounter();
    const seen: object[] = [];
    function View() {
      const picked = useStore(
        store,
        (s) => ({ count: s.count }),
        (a, b) => a.count === b.count,
      );
      seen.push(picked);
      return null;
    }
    render(<View />);
    act(() => store.touchOther());
    expect(new Set(seen).size).toBe(1);
  });

  it('applies a new selector at once, and unsubscribes on unmount (StrictMode included)', () => {
    const store = createCounter();
    let setKey: (key: 'count' | 'other') => void = () => {};
    function View() {
      const [key, set] = useState<'count' | 'other'>('count');
      setKey = set;
      return <span>{useStore(store, (s) => `${key}=${s[key]}`)}</span>;
    }
    act(() => store.inc());
    const { container, unmount } = render(
      <StrictMode>
        <View />
      </StrictMode>,
    );
    expect(container.textContent).toBe('count=1');
    act(() => setKey('other'));
    expect(container.textContent).toBe('other=0');
    expect(store.listeners()).toBe(1);
    unmount();
    expect(store.listeners()).toBe(0);
  });
});
