/**
 * The typed error of a chat stream's error line (7, behaviour 1). One home for the
 * mapping, so the chat client (which throws it) and the thread store (which records it) name a
 * failure the same way. Internal: not exported from any entry of the package.
 *
 * @module
 */
import { ServiceAuthError, ServiceStreamError, StreamingInProgressError } from './errors';
import type { ServiceError } from './errors';
import { STREAMING_IN_PROGRESS, rpcErrorOf } from './protocol/chat';
import type { ErrorLine, RpcErrorLine } from './protocol/chat';

/**
 * A JSON-RPC error object is a refused credential ({@link ServiceAuthError}); an `{"error"}` line
 * is {@link StreamingInProgressError} when the thread was busy, else a {@link ServiceStreamError}.
 */
export function chatLineError(line: ErrorLine | RpcErrorLine): ServiceError {
  const rpcError = rpcErrorOf(line);
  if (rpcError) return new ServiceAuthError(`Chat authentication failed: ${rpcError.message}`, { rpcError });
  const { error } = line as ErrorLine;
  return error.includes(STREAMING_IN_PROGRESS) ? new StreamingInProgressError() : new ServiceStreamError(error);
}
