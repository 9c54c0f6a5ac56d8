/**
 * A Storybook decorator that replays a recorded chat, with no dependency on React or Storybook:
 * it only changes the story's args, so the testing entry keeps to its layer (core only).
 *
 * @module
 */
import { createReplayFetch, type ReplayFetch, type ReplayFetchOptions } from './replay-fetch';

/** Options of {@link withReplayFetch}: those of `createReplayFetch`, and where the fetch goes. */
export interface WithReplayFetchOptions extends ReplayFetchOptions {
  /**
   * The `url` arg given with the fetch. Default `'/replay'`: any URL works, the replay fetch
   * answers every `.../chat/stream-chat-state` and `.../chat/abort`.
   */
  url?: string;
}

/** The part of a Storybook story context the decorator reads. */
export interface ReplayStoryContext<TArgs> {
  /** The story's id: one replay fetch per story, kept across its re-renders. */
  id: string;
  /** The story's args. */
  args: TArgs;
}

/**
 * Returns a Storybook decorator that gives the story the args `url` and `fetch` of a replay
 * fetch: `AgentChat` (whose props include `useAgentChat`'s options) and any story that passes
 * them to `useAgentChat` then chat over the recorded transcript. Without React, a decorator
 * cannot wrap the story in a `ServiceProvider`; it updates args instead, which Storybook's
 * decorators may do (`Story({ args })`).
 *
 * ```ts
 * export const Answered: StoryObj<typeof AgentChat> = {
 *   decorators: [withReplayFetch({ transcript: TRANSCRIPTS['top-customers'], delayMs: 20 })],
 * };
 * ```
 *
 * One replay fetch per story id, so the requests it recorded stay readable in a play function
 * through {@link replayFetchOf}.
 */
export function withReplayFetch(options: WithReplayFetchOptions) {
  const { url = '/replay', ...replayOptions } = options;
  const replays = new Map<string, ReplayFetch>();
  const decorator = <TArgs, TResult>(
    story: (update?: { args?: TArgs }) => TResult,
    context: ReplayStoryContext<TArgs>,
  ): TResult => {
    let replay = replays.get(context.id);
    if (!replay) {
      replay = createReplayFetch(replayOptions);
      replays.set(context.id, replay);
      storyReplays.set(context.id, replay);
    }
    return story({ args: { ...context.args, url, fetch: replay.fetch } });
  };
  return decorator;
}

const storyReplays = new Map<string, ReplayFetch>();

/** The replay fetch {@link withReplayFetch} made for the story `id` (a play function's `context.id`), if any. */
export function replayFetchOf(id: string): ReplayFetch | undefined {
  return storyReplays.get(id);
}
