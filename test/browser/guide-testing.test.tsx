// The examples of docs/testing.md, as a partner's tests would use @service/react/testing.
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { AgentChat, EmbeddedDashboard, ServiceProvider } from '../../src';
import { createFakeEmbed, createReplayFetch, TRANSCRIPTS } from '../../src/testing';

afterEach(cleanup);

it('the chat shows the recorded answer once, across a dropped connection', async () => {
  const replay = createReplayFetch({
    transcript: TRANSCRIPTS['top-customers'],
    chunking: 'bytes',
    faults: { dropAfterLines: 10 },
  });
  render(
    <ServiceProvider chat={{ url: '/api/service', fetch: replay.fetch }}>
      <AgentChat />
    </ServiceProvider>,
  );
  await userEvent.type(screen.getByRole('textbox', { name: 'Ask a question' }), 'Who are our top 10 customers?{Enter}');
  await waitFor(() => expect(document.querySelectorAll('[data-part="final-answer"]')).toHaveLength(1));
  expect(replay.streams).toHaveLength(2); // the client resubscribed with the same messageId
  expect(replay.streams[1]!['messageId']).toBe(replay.streams[0]!['messageId']);
});

it('the dashboard gets its session, reports ready, and sends the colour scheme after ready', async () => {
  const fake = createFakeEmbed();
  const ready: unknown[] = [];
  try {
    render(
      <ServiceProvider tenantUrl={fake.tenantUrl} getEmbedSession={async () => 'test-session'}>
        <EmbeddedDashboard
          publicId="sales-overview"
          colorScheme="dark"
          onReady={(event) => ready.push(event.payload)}
        />
      </ServiceProvider>,
    );
    await expect(fake.waitForAction('service:action:set-color-scheme')).resolves.toMatchObject({
      payload: { scheme: 'dark' },
    });
    expect(ready).toHaveLength(1);
    expect(new URL(fake.loads[0]!.url).searchParams.get('session')).toBe('test-session');
  } finally {
    fake.dispose();
  }
});
