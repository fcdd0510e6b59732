import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { isFormBody, parseFormBody } from './forms.js';
import { RequestValidationError } from '@kontrol/server-kit';

/** PostgreSQL's `integer`, the type of every id column: a larger id names no row and is refused there. */
export const DB_ID_MAX = 2_147_483_647;
/** Fields naming rows by id: `id`, `ids`, `…_id`, `…_ids`, and the device lists of the reports. */
const ID_FIELD = /^(?:ids?|devices?)$|_ids?$/;
const NUL = '\u0000';
/** Enough issues to show what is wrong; a body with more is not walked further. */
const MAX_ISSUES = 50;

/**
 * What the schemas let through but the database cannot store or look up, in the parsed request: a
 * NUL character in any text (PostgreSQL's text cannot hold one), and an id past the id columns'
 * range. Each is a 422 on its field, the same on SQLite and PostgreSQL, instead of a database
 * error (a 500) on PostgreSQL only.
 */
export function storageIssues(value: unknown): z.core.$ZodIssue[] {
  const issues: z.core.$ZodIssue[] = [];
  const stack: { value: unknown; path: PropertyKey[]; idField: boolean }[] = [
    { value, path: [], idField: false },
  ];
  while (stack.length > 0 && issues.length < MAX_ISSUES) {
    const item = stack.pop();
    if (!item) break;
    const { path, idField } = item;
    if (typeof item.value === 'string') {
      if (item.value.includes(NUL)) {
        issues.push({
          code: 'invalid_format',
          format: 'text',
          path,
          message: 'NUL character',
          input: item.value,
        });
      }
    } else if (typeof item.value === 'number') {
      if (idField && Math.abs(item.value) > DB_ID_MAX) {
        issues.push({
          code: 'too_big',
          origin: 'number',
          maximum: DB_ID_MAX,
          inclusive: true,
          path,
          message: 'id out of range',
          input: item.value,
        });
      }
    } else if (Array.isArray(item.value)) {
      item.value.forEach((child, index) => stack.push({ value: child, path: [...path, index], idField }));
    } else if (item.value !== null && typeof item.value === 'object') {
      for (const [key, child] of Object.entries(item.value)) {
        if (key.includes(NUL)) {
          issues.push({
            code: 'invalid_format',
            format: 'text',
            path: [...path, key],
            message: 'NUL character',
            input: key,
          });
        }
        stack.push({ value: child, path: [...path, key], idField: ID_FIELD.test(key) });
      }
    }
  }
  return issues;
}

/**
 * Validates requests with the route's zod schema and keeps the raw issues (with their input, to
 * tell "missing" from "wrong"), so the error handler can word them in the caller's language; then
 * refuses what the database could not take ({@link storageIssues}).
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    // A form's fields are all text: read as the types the schema asks for (lib/forms.ts).
    const result =
      httpPart === 'body' && isFormBody(data)
        ? parseFormBody(schema, data as Record<string, unknown>)
        : schema.safeParse(data, { reportInput: true });
    if (!result.success) return { error: new RequestValidationError(result.error.issues) };
    const issues = storageIssues(result.data);
    return issues.length > 0 ? { error: new RequestValidationError(issues) } : { value: result.data };
  };
