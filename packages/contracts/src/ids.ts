import { z } from 'zod';

/**
 * The largest id a row can have: PostgreSQL's `integer`. A larger one in a request is the client's
 * mistake (a 422), never a query the database would refuse.
 */
export const ID_MAX = 2_147_483_647;

/** A record's id in a JSON body or a filter. */
export const idSchema = z.number().int().positive().max(ID_MAX);

/** A record's id in a URL's path, where it arrives as text. */
export const idParamSchema = z.coerce.number().int().positive().max(ID_MAX);

/** The `:id` of a path such as `/api/rooms/:id`. */
export const idParamsSchema = z.object({ id: idParamSchema });
