import { z } from 'zod';

/** `{message}`: every error that is not a validation failure (401, 403, 404, 419, 429, 5xx). */
export const messageBodySchema = z.object({ message: z.string() });
/** 422: `{message, errors: {field: [messages]}}`, Laravel's shape. */
export const validationErrorBodySchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())),
});
export type ValidationErrorBody = z.infer<typeof validationErrorBodySchema>;
