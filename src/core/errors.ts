/**
 * Typed errors of the library. Every error is a {@link ServiceError} with a `code` (stable,
 * machine-readable) and, when the service answered over HTTP, its `status`.
 *
 * `instanceof` breaks when an app ends up with two copies of the package (a common bundling
 * accident), so each class also has a static `isInstance` that checks a `Symbol.for` brand.
 *
 * Fields are `declare`d and set in the constructors: no class-field definitions to ship.
 *
 * @module
 */

import type { ServiceErrorCode } from './protocol/error-codes';

const BRANDS: unique symbol = Symbol.for('@service/react/error-brands') as never;

/** Options shared by every error constructor. */
export interface ServiceErrorOptions {
  /** Stable, machine-readable error code: one of `ServiceErrorCodes`. */
  code: ServiceErrorCode;
  /** HTTP status of the response that carried the error, when there was one. */
  status?: number | undefined;
  /** The underlying error, if any. */
  cause?: unknown;
}

/** Base class of every error thrown by `@service/react`. */
export class ServiceError extends Error {
  /** Name used for the brand; each subclass sets its own. */
  static readonly errorName: string = 'ServiceError';

  /**
   * Stable, machine-readable error code, for example `not_found` or `streaming_in_progress`: one
   * of `ServiceErrorCodes`, each with a sentence. A `ServiceHttpError` may also carry a code
   * that the answer's body named and this version does not list, as it was sent.
   */
  declare readonly code: ServiceErrorCode;
  /**
   * HTTP status of the response that carried the error; `undefined` for errors that arrived as a
   * line inside a 200 stream or never reached the service.
   */
  declare readonly status: number | undefined;
  /** @internal The class names of the error and its bases, for `isInstance` across copies of the package. */
  declare readonly [BRANDS]: readonly string[];

  constructor(message: string, options: ServiceErrorOptions) {
    // Error reads only `cause` from its options, and only when the key is there.
    super(message, options);
    // The brands are the `errorName` of every class from this one's up to ServiceError.
    const brands: string[] = [];
    for (
      let proto = Object.getPrototypeOf(this) as object;
      proto !== Error.prototype;
      proto = Object.getPrototypeOf(proto) as object
    ) {
      brands.push((proto.constructor as typeof ServiceError).errorName);
    }
    Object.defineProperty(this, BRANDS, { value: brands });
    this.name = new.target.errorName;
    this.code = options.code;
    this.status = options.status;
  }

  /** True when `value` is an instance of this class, even from another copy of the package. */
  static isInstance<T extends abstract new (...args: never[]) => ServiceError>(
    this: T & { errorName: string },
    value: unknown,
  ): value is InstanceType<T> {
    const brands = (value as { [BRANDS]?: unknown } | null | undefined)?.[BRANDS];
    return Array.isArray(brands) && brands.includes(this.errorName);
  }
}

const CODES: { readonly [status: number]: ServiceErrorCode } = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
};

/** Maps an HTTP status to the `code` of a {@link ServiceHttpError}. */
export function codeForStatus(status: number): ServiceErrorCode {
  return CODES[status] ?? (status >= 500 ? 'server_error' : 'http_error');
}

/**
 * The service answered with an HTTP error status (400, 401, 403, 404, 409, 5xx...).
 * `serviceMessage` holds the service's own message (`{"error": "..."}`) when it sent one. `code`
 * is the code the body named (the service's, or the host route's `{ error, code }`), else one
 * from the status: a named code this version does not list is kept as it was sent.
 */
export class ServiceHttpError extends ServiceError {
  static override readonly errorName: string = 'ServiceHttpError';
  declare readonly status: number;
  /** The service's own error message, when the body carried one. */
  declare readonly serviceMessage: string | undefined;
  /** The parsed JSON body, or the raw text when it was not JSON. */
  declare readonly body: unknown;

  constructor(
    message: string,
    options: { status: number; code?: ServiceErrorCode; serviceMessage?: string; body?: unknown; cause?: unknown },
  ) {
    super(message, { ...options, code: options.code ?? codeForStatus(options.status) });
    this.serviceMessage = options.serviceMessage;
    this.body = options.body;
  }
}

/**
 * The credential was refused. Chat reports this as a JSON-RPC error object inside an HTTP 200
 * body (`rpcError` holds it); other APIs answer 401 or 403.
 */
export class ServiceAuthError extends ServiceError {
  static override readonly errorName: string = 'ServiceAuthError';
  /** The JSON-RPC error object, when the service sent one. */
  declare readonly rpcError:
    | {
        /** The JSON-RPC error code the service sent. */
        code: number;
        /** The service's message, as sent. */
        message: string;
      }
    | undefined;

  constructor(
    message: string,
    options: { status?: number; rpcError?: { code: number; message: string }; cause?: unknown } = {},
  ) {
    super(message, { ...options, code: 'unauthorized' });
    this.rpcError = options.rpcError;
  }
}

/**
 * A new chat message was sent while the thread was still streaming another one
 * (`Streaming for thread is in progress`), as HTTP 409 or as an error line of a 200 stream.
 */
export class StreamingInProgressError extends ServiceError {
  static override readonly errorName: string = 'StreamingInProgressError';
  constructor(options: { status?: number; cause?: unknown } = {}) {
    super('Streaming for thread is in progress', { ...options, code: 'streaming_in_progress' });
  }
}

/** The stream reported an error after it started: a `{"error": "..."}` line. */
export class ServiceStreamError extends ServiceError {
  static override readonly errorName: string = 'ServiceStreamError';
  constructor(message: string, options: { code?: ServiceErrorCode; cause?: unknown } = {}) {
    super(message, { ...options, code: options.code ?? 'stream_error' });
  }
}

/** The connection dropped before the stream's end and could not be resumed. */
export class ConnectionLostError extends ServiceError {
  static override readonly errorName: string = 'ConnectionLostError';
  /** How many times the client tried again before giving up. */
  declare readonly attempts: number;
  constructor(message: string, options: { attempts: number; cause?: unknown }) {
    super(message, { ...options, code: 'connection_lost' });
    this.attempts = options.attempts;
  }
}

/** The caller cancelled the operation through its `AbortSignal`. */
export class ServiceAbortError extends ServiceError {
  static override readonly errorName: string = 'ServiceAbortError';
  constructor(message = 'The operation was aborted', options: { cause?: unknown } = {}) {
    super(message, { ...options, code: 'aborted' });
  }
}

/** The library was called with options that cannot work; the message says what to change. */
export class ServiceConfigError extends ServiceError {
  static override readonly errorName: string = 'ServiceConfigError';
  constructor(message: string, options: { code?: ServiceErrorCode; cause?: unknown } = {}) {
    super(message, { ...options, code: options.code ?? 'invalid_options' });
  }
}

/** Input failed validation against the protocol; `problems` lists each one in words a person can act on. */
export class ServiceValidationError extends ServiceError {
  static override readonly errorName: string = 'ServiceValidationError';
  /** One entry per broken rule. */
  declare readonly problems: readonly string[];
  constructor(problems: readonly string[], options: { message?: string; cause?: unknown } = {}) {
    super(options.message ?? `Invalid input: ${problems.join('; ')}`, { ...options, code: 'invalid_input' });
    this.problems = problems;
  }
}
