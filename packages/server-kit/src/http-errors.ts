import type { MessageKey, MessageParams } from '@kontrol/contracts';
import type { z } from 'zod';

/**
 * An error with an HTTP status and a catalog message; the error handler translates it into the
 * request's language and answers `{message}`.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly messageKey: MessageKey,
    readonly params: MessageParams = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(messageKey);
    this.name = 'HttpError';
  }
}

/**
 * A 422 raised by a service rule (e-mail taken, wrong current password): field → catalog messages.
 * Schema failures come from the route validator instead; both answer the same shape.
 */
export class FieldValidationError extends Error {
  constructor(
    readonly fields: Record<string, MessageKey[]>,
    /** Placeholder values of messages that have some (`image.too_large` → `{max}`). */
    readonly params: Partial<Record<MessageKey, MessageParams>> = {},
    /**
     * Placeholder values of one field's messages, over `params`: the same message with other
     * values on another field (`steps.0.temperature` and `steps.2.temperature`, two ranges).
     */
    readonly fieldParams: Record<string, MessageParams> = {},
  ) {
    super('validation failed');
    this.name = 'FieldValidationError';
  }
}

export const unauthenticated = () => new HttpError(401, 'http.unauthenticated');
export const forbidden = () => new HttpError(403, 'http.forbidden');
export const notFound = () => new HttpError(404, 'http.not_found');
export const csrfMismatch = () => new HttpError(419, 'http.csrf');
export const tooManyRequests = (retryAfterSeconds: number, key: MessageKey = 'http.too_many') =>
  new HttpError(429, key, { seconds: retryAfterSeconds }, { 'retry-after': String(retryAfterSeconds) });

/**
 * A service the request needs outside this process did not answer (the external MQTT broker when a
 * credential changes) and nothing was changed: the error handler logs it under `logMessage` and
 * answers 503 with `retry-after: 5`, so the client tries again.
 */
export class DependencyUnavailableError extends Error {
  constructor(
    message: string,
    readonly messageKey: MessageKey,
    readonly logMessage: string,
  ) {
    super(message);
    this.name = 'DependencyUnavailableError';
  }
}

/** Raised by the route validator with the raw zod issues; formatted per language at answer time. */
export class RequestValidationError extends Error {
  statusCode = 422;
  constructor(readonly issues: readonly z.core.$ZodIssue[]) {
    super('request validation failed');
    this.name = 'RequestValidationError';
  }
}
