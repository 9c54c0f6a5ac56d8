/**
 * The composer's question held by the host (`input`, `onInputChange` on `AgentChat` and
 * `ChatComposer`): pre-filled from outside, edited by the viewer, cleared once sent.
 */
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentChat } from '../../../src/components/chat';
import { ServiceProvider } from '../../../src/react';
import { TRANSCRIPTS, createReplayFetch } from '../../../src/testing';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('a question the host holds', () => {
  it('pre-fills the composer, follows the viewer, and is cleared once sent', async () => {
    const replay = createReplayFetch({ transcript: TRANSCRIPTS['revenue-by-month'] });
    const changes: string[] = [];
    const control: { set?: (input: string) => void } = {};
    function Host() {
      const [input, setInput] = useState('');
      control.set = setInput;
      return (
        <ServiceProvider chat={{ url: '/api/service', fetch: replay.fetch }}>
          <AgentChat
            input={input}
            onInputChange={(next) => {
              changes.push(next);
              setInput(next);
            }}
          />
        </ServiceProvider>
      );
    }
    const { container } = render(<Host />);
    const textbox = container.querySelector('textarea')!;
    act(() => control.set!('Tell me more about orders.count for completed.'));
    expect(textbox.value).toBe('Tell me more about orders.count for completed.');
    fireEvent.change(textbox, { target: { value: 'Tell me more about orders.count for shipped.' } });
    expect(textbox.value).toBe('Tell me more about orders.count for shipped.');
    await act(async () => {
      fireEvent.submit(container.querySelector('form')!);
    });
    expect(changes).toEqual(['Tell me more about orders.count for shipped.', '']);
    expect(textbox.value).toBe('');
    expect(replay.streams[0]).toMatchObject({ input: 'Tell me more about orders.count for shipped.' });
  });

  it('warns in development when it switches between held and not', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { rerender } = render(
      <ServiceProvider chat={{ url: '/api/service' }}>
        <AgentChat />
      </ServiceProvider>,
    );
    rerender(
      <ServiceProvider chat={{ url: '/api/service' }}>
        <AgentChat input="x" onInputChange={() => {}} />
      </ServiceProvider>,
    );
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('switched from uncontrolled to controlled'));
  });
});
