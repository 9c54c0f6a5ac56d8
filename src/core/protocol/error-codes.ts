/**
 * Every error `code` the library and its emulator name, each with one sentence: the codes of
 * `ServiceError` and its subclasses, the codes of the service's own error bodies and stream lines,
 * and those of the host routes' `{ error, code }` answers. A code used anywhere in `src/` must be
 * here (test/unit/core/error-codes.test.ts scans the sources); `ServiceErrorCode` is its keys.
 *
 * A table of types, not of values: it costs no byte in any bundle, and editors show the sentence
 * of a code where it is used.
 *
 * @module
 */

/** Each error code (a key) and what it means (its type, one sentence); where it comes from in its comment. */
export interface ServiceErrorCodes {
  // The service answered with an HTTP error status and no more precise code.
  /** 400. */
  bad_request: 'The request was malformed: the service, or the host route, could not accept it.';
  /** 401, or a refused chat credential. */
  unauthorized: 'The credential was refused, or nobody is signed in at the host route.';
  /** 403. */
  forbidden: 'The credential or the viewer may not do this.';
  /** 404. */
  not_found: 'What the request names does not exist.';
  /** 409. */
  conflict: 'The request conflicts with the current state of what it names.';
  /** 5xx. */
  server_error: 'The service failed (HTTP 5xx).';
  /** Any other error status. */
  http_error: 'The service answered with an HTTP error status.';

  // The service's own codes.
  /** The upsert's create or update branch changed under a concurrent writer. */
  upsert_branch_changed: 'Another writer created or deleted the workbook meanwhile; retry the upsert.';
  /** Generate-session: an attribute name that is not in the catalog. */
  user_attributes_not_found: 'The session names user attributes the deployment does not define.';
  /** Generate-session: group names that do not exist. */
  groups_not_found: 'The session names groups that do not exist.';
  /** Generate-session: an attribute definition would change an existing attribute's type. */
  cannot_change_type: "The session would change an existing user attribute's type; nothing was upserted.";
  /** The `__aborted__` line of a chat stream. */
  chat_aborted: 'The answer was stopped through the abort endpoint.';
  /** The `__suspended__` line of a chat stream. */
  chat_suspended: 'The service suspended the run before its answer ended.';

  // Chat and streams.
  /** `StreamingInProgressError`. */
  streaming_in_progress: 'A question was sent while the thread was still answering another.';
  /** `ServiceStreamError`. */
  stream_error: 'The stream reported an error after it started.';
  /** `ConnectionLostError`. */
  connection_lost: 'The connection dropped before the stream ended and could not be resumed.';
  /** `readNdjson`'s `maxLineBytes`. */
  line_too_long: 'A stream line was longer than the reader allows.';
  /** `createChatClient` with an API key. */
  session_settings_required: 'A chat request with an API key needs sessionSettings, which name the chat user.';
  /** A rejection that was not an `Error`. */
  unknown_error: 'Something failed with a value that is not an Error.';

  // Any call.
  /** `ServiceAbortError`, or a host route whose browser went away. */
  aborted: 'The operation was cancelled (its AbortSignal, or the browser left).';
  /** `ServiceConfigError`. */
  invalid_options: 'The library was called with options that cannot work.';
  /** `ServiceValidationError`. */
  invalid_input: 'Input failed validation against the protocol.';
  /** A success status with a body that is not what the endpoint promises. */
  invalid_response: 'The service answered with a body the endpoint does not promise.';
  /** `timeoutMs` of the server helpers. */
  upstream_timeout: 'The service did not answer in time.';

  // The data API.
  /** `DataQueryError`. */
  query_error: 'The data API query failed.';
  /** `ContinueWaitExhaustedError`. */
  continue_wait_exhausted: 'The data API kept answering "Continue wait" for every allowed attempt.';
  /** The SQL stream's lines came in an order it does not allow. */
  invalid_stream: 'The SQL stream broke its order (rows before the schema, a second schema).';
  /** The SQL stream ended too early. */
  incomplete_stream: 'The SQL stream was empty or ended before its schema.';
  /** A line of the SQL stream that is not JSON. */
  malformed_line: 'The SQL stream sent a line that is not JSON.';

  // Embeds.
  /** `readyTimeoutMs`, while waiting for `getEmbedSession`. */
  session_timeout: 'getEmbedSession did not settle in time.';
  /** `getEmbedSession` rejected. */
  session_failed: 'getEmbedSession failed.';
  /** `readyTimeoutMs`, while waiting for the page. */
  ready_timeout: 'The embed did not say ready in time.';
  /** A `service:event:error` with `fatal: true`. */
  embed_error: 'The embed reported a fatal error.';
  /** The emulator's embed page refused a `set-session` (used, expired, or another tenant or surface). */
  session_refused: 'The embed refused the new session it was given.';
  /** The frame loaded another document after `ready`, and no `ready` followed. */
  origin_changed: 'The embed left the tenant: its frame loaded another page that never said ready.';

  // The host's routes (`createSessionHandler`, `createChatProxyHandler`).
  /** 405. */
  method_not_allowed: 'The route takes another HTTP method.';
  /** 413. */
  payload_too_large: 'The request body is larger than the route accepts.';
  /** 415. */
  unsupported_media_type: 'The request body is not declared as JSON.';
  /** 403 from the route itself. */
  cross_site_request: 'A cross-site request, refused.';
  /** 404, 429 from `refuseSession` without a code of its own. */
  refused: 'The host refused the session.';
  /** 500: the host's own resolver threw. */
  internal_error: 'The host route failed.';
  /** 500: the host's resolver built a session request that breaks a rule. */
  invalid_session_request: 'The server built an invalid embed session request.';
  /** 500: the host's resolver decided chat sessionSettings that break a rule. */
  invalid_session_settings: 'The server decided invalid chat sessionSettings.';
  /** 500: the host's resolver returned data-token claims that break a rule (`createDataTokenHandler`). */
  invalid_claims: 'The server built invalid data-token claims.';
  /** 502. */
  bad_gateway: 'The route could not reach the service.';

  // The emulator.
  /** `startEmulator`'s `host`. */
  non_loopback_host: 'The emulator only listens on a loopback address: its keys and secrets are published.';
}

/** An error `code`: a key of {@link ServiceErrorCodes}, whose type is its sentence. */
export type ServiceErrorCode = keyof ServiceErrorCodes;
