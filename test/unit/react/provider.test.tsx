import { act, render, renderHook } from '@testing-library/react';
import { useEffect, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ServiceConfigError } from '../../../src/core';
import { ServiceProvider, useServiceContext, type ServiceContextValue } from '../../../src/react';

describe('ServiceProvider', () => {
  it('fails loudly outside the provider, naming the hook', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => renderHook(() => useServiceContext('useThing'))).toThrow(
      new ServiceConfigError('`useThing` must be used within <ServiceProvider>'),
    );
    vi.restoreAllMocks();
  });

  it('checks tenantUrl once: https and loopback http pass, others become a typed error', () => {
    const read = (tenantUrl: string | undefined) =>
      renderHook(() => useServiceContext('test'), {
        wrapper: ({ children }: { children: ReactNode }) => (
          <ServiceProvider tenantUrl={tenantUrl}>{children}</ServiceProvider>
        ),
      }).result.current;
    expect(read('https://acme.example.com/some/path')).toMatchObject({
      tenantOrigin: 'https://acme.example.com',
      tenantError: undefined,
    });
    expect(read('http://127.0.0.1:4010')).toMatchObject({
      tenantOrigin: 'http://127.0.0.1:4010',
      tenantError: undefined,
    });
    for (const bad of ['http://acme.example.com', 'javascript:alert(1)', 'not a url', undefined]) {
      const value = read(bad);
      expect(value.tenantOrigin).toBeUndefined();
      expect(value.tenantError).toBeInstanceOf(ServiceConfigError);
      expect(value.tenantError?.message).toMatch(/tenantUrl/);
    }
  });

  it('keeps one context value across re-renders with equal props, and calls the latest getEmbedSession', async () => {
    const values: ServiceContextValue[] = [];
    function Reader() {
      const value = useServiceContext('Reader');
      useEffect(() => {
        values.push(value);
      });
      return null;
    }
    const calls: string[] = [];
    const tree = (tag: string) => (
      <ServiceProvider
        tenantUrl="https://acme.example.com"
        // A new inline function every render, as partners write it.
        getEmbedSession={async (request) => {
          calls.push(`${tag}:${request.surface}`);
          return 'a'.repeat(32);
        }}
      >
        <Reader />
      </ServiceProvider>
    );
    const { rerender } = render(tree('first'));
    rerender(tree('second'));
    expect(values.length).toBe(2);
    expect(values[1]).toBe(values[0]);
    await act(() =>
      values[1]!.getEmbedSession!({ surface: 'dashboard', publicId: 'x' }, { signal: new AbortController().signal }),
    );
    expect(calls).toEqual(['second:dashboard']);
  });

  it('renders no element of its own in a server render', async () => {
    const { renderToString } = await import('react-dom/server');
    const html = renderToString(
      <ServiceProvider tenantUrl="https://acme.example.com">
        <p>inside</p>
      </ServiceProvider>,
    );
    expect(html).toBe('<p>inside</p>');
  });
});
