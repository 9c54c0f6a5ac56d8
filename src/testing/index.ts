/**
 * `@service/react/testing`: a kit for partners' own tests of their integration, and ours. A
 * replay `fetch` for the chat (recorded transcripts, chunking, pace and faults you choose), the
 * recorded transcripts themselves, a fake embed peer for embed components, and a Storybook
 * decorator. Framework-free (it imports only the core), so it runs under any test runner.
 *
 * @module
 */

/** A `fetch` answering the Chat API from recorded NDJSON transcripts; see `createReplayFetch`. */
export { createReplayFetch, chunkText } from './replay-fetch';
export type { ReplayChunking, ReplayFaults, ReplayFetch, ReplayFetchOptions, ReplayRequest } from './replay-fetch';

/** The recorded chat transcripts, by name. */
export { TRANSCRIPTS } from './transcripts.generated';
export type { TranscriptName } from './transcripts.generated';

/** A fake embed peer for tests of embed components and channels; see `createFakeEmbed`. */
export { createFakeEmbed, defaultEmbedEvents } from './fake-embed';
export type { FakeEmbed, FakeEmbedEvent, FakeEmbedLoad, FakeEmbedOptions } from './fake-embed';

/** A Storybook decorator that replays a recorded chat through the story's args; see `withReplayFetch`. */
export { withReplayFetch, replayFetchOf } from './storybook';
export type { WithReplayFetchOptions, ReplayStoryContext } from './storybook';
