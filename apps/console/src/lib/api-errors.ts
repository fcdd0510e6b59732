import { LOGOUT_STATUSES, type ValidationErrorBody } from '@kontrol/contracts';
import axios from 'axios';

/** What a failed API call means to the screen that made it (docs/contract.md, "Error catalogue"). */
export type ApiFailure =
  /** No answer at all: network down, server unreachable, or an answer that is not the API's. */
  | { kind: 'connection' }
  /** 422: field messages to show under the fields. */
  | { kind: 'validation'; message: string; errors: ValidationErrorBody['errors'] }
  /** Any other non-2xx answer, with the server's own message. */
  | { kind: 'http'; status: number; message: string };

/** The HTTP status the server answered with, if it answered at all. */
export function statusOf(error: unknown): number | undefined {
  return axios.isAxiosError(error) ? error.response?.status : undefined;
}

/** 401 or 419: there is no (valid) session any more (docs/contract.md, "Error catalogue", "Constants and limits"). */
export function endsSession(error: unknown): boolean {
  const status = statusOf(error);
  return status !== undefined && (LOGOUT_STATUSES as readonly number[]).includes(status);
}

/** True when the call was aborted on purpose (the screen went away); such failures show nothing. */
export function isAbortError(error: unknown): boolean {
  return axios.isCancel(error);
}

export function toApiFailure(error: unknown): ApiFailure {
  if (!axios.isAxiosError(error) || !error.response) {
    if (axios.isAxiosError(error)) {
      console.error(`No server answered ${error.config?.url ?? 'the request'}`, error);
    } else {
      console.error(error);
    }
    return { kind: 'connection' };
  }
  return failureOfAnswer(error.response.status, error.response.data);
}

/**
 * What a non-2xx answer means, from its status and parsed body: for calls made without the API
 * client (a streamed download through `fetch`). A body without the API's `message` is not the
 * API's (a proxy page): a connection error.
 */
export function failureOfAnswer(status: number, data: unknown): ApiFailure {
  const message = messageOf(data);
  if (message === null) return { kind: 'connection' };
  if (status === 422 && isFieldErrors(data)) {
    return { kind: 'validation', message, errors: data.errors };
  }
  return { kind: 'http', status, message };
}

function messageOf(data: unknown): string | null {
  if (typeof data !== 'object' || data === null || !('message' in data)) return null;
  return typeof data.message === 'string' ? data.message : null;
}

function isFieldErrors(data: unknown): data is ValidationErrorBody {
  if (typeof data !== 'object' || data === null || !('errors' in data)) return false;
  const { errors } = data;
  return (
    typeof errors === 'object' &&
    errors !== null &&
    Object.values(errors).every(
      (messages) => Array.isArray(messages) && messages.every((m) => typeof m === 'string'),
    )
  );
}
