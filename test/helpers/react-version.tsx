/**
 * The checks behind `react-version.test.tsx` (unit and browser): each vitest project says which
 * React major it runs on (`provide: { reactMajor }` in vitest.config.ts), and these prove that
 * React, its renderers and every library that imports React resolved to that one copy. A project
 * whose alias silently fell back to the top-level React would fail here, not pass on the wrong React.
 */
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { useEffect, useState, version } from 'react';
import { version as domVersion } from 'react-dom';
import { renderToString, version as serverVersion } from 'react-dom/server';
import Markdown from 'react-markdown';
import { expect, inject, it } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The major version of React the project resolves `react` and `react-dom` to. */
    reactMajor: 18 | 19;
  }
}

/** Registers the version checks in the calling test file. */
export function describeReactVersion(): void {
  const major = inject('reactMajor');

  it('resolves react, react-dom and react-dom/server to the project React', () => {
    expect(version.split('.')[0]).toBe(String(major));
    expect(domVersion).toBe(version);
    expect(serverVersion).toBe(version);
  });

  it('compiles JSX through the same React (jsx-runtime)', () => {
    // React 19 renamed the element tag; an element from the other React's jsx-runtime is not a
    // valid child for this renderer, so the tag shows which runtime the JSX went through.
    const tag = major === 18 ? 'react.element' : 'react.transitional.element';
    expect(((<b />) as unknown as { $$typeof: symbol }).$$typeof).toBe(Symbol.for(tag));
    expect(renderToString(<b>bold</b>)).toBe('<b>bold</b>');
  });

  it('gives Testing Library, TanStack Query and react-markdown the same React (hooks work across them)', async () => {
    // A second copy of React anywhere in this tree fails with "Invalid hook call".
    function Counter() {
      const [count, setCount] = useState(0);
      useEffect(() => setCount(1), []);
      const query = useQuery({ queryKey: ['version'], queryFn: () => Promise.resolve(version) });
      return (
        <div>
          <p>effects: {count}</p>
          <p>query: {query.data ?? 'pending'}</p>
          <Markdown>{'**markdown**'}</Markdown>
        </div>
      );
    }
    const client = new QueryClient();
    render(
      <QueryClientProvider client={client}>
        <Counter />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(screen.getByText(`query: ${version}`)).toBeTruthy());
    expect(screen.getByText('effects: 1')).toBeTruthy();
    expect(screen.getByText('markdown').tagName).toBe('STRONG');
    client.clear();
  });
}
