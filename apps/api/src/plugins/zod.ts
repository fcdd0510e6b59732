import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { RequestValidationError } from './errors.js';

/**
 * Validates requests with the route's zod schema and keeps the raw issues (with their input, to
 * tell "missing" from "wrong"), so the error handler can word them in the caller's language.
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    const result = schema.safeParse(data, { reportInput: true });
    return result.success
      ? { value: result.data }
      : { error: new RequestValidationError(result.error.issues) };
  };
