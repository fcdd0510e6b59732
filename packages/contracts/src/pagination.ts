import { z } from 'zod';

/** Page size when the request names none, and the largest a request may ask for. */
export const DEFAULT_PER_PAGE = 25;
export const MAX_PER_PAGE = 100;

export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  per_page: z.coerce.number().int().min(1).max(MAX_PER_PAGE).default(DEFAULT_PER_PAGE),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

export const paginationLinksSchema = z.object({
  first: z.string(),
  last: z.string(),
  prev: z.string().nullable(),
  next: z.string().nullable(),
});

export const paginationMetaSchema = z.object({
  current_page: z.number().int(),
  from: z.number().int().nullable(),
  last_page: z.number().int(),
  path: z.string(),
  per_page: z.number().int(),
  to: z.number().int().nullable(),
  total: z.number().int(),
});
export type PaginationMeta = z.infer<typeof paginationMetaSchema>;

/** Laravel's paged list: `{data, links, meta}` (docs/api.md, "Requests"). */
export function pagedSchema<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), links: paginationLinksSchema, meta: paginationMetaSchema });
}

/** Filter operators a resource may allow; each resource whitelists its own subset per field. */
export const FILTER_OPERATORS = ['=', '!=', '<', '<=', '>', '>=', 'like', 'in', 'between'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** docs/contract.md, "Entities": filters have the shape field -> {operator, value}. */
export const filterConditionSchema = z.object({
  operator: z.enum(FILTER_OPERATORS),
  value: z.union([
    z.string().max(500),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(z.union([z.string().max(500), z.number()])).max(1000),
  ]),
});
export type FilterCondition = z.infer<typeof filterConditionSchema>;
export const filtersSchema = z.record(z.string().max(64), filterConditionSchema);
export type Filters = z.infer<typeof filtersSchema>;

/**
 * `filters` as a request parameter: an object (`filters[name][operator]=like&filters[name][value]=a`
 * in a query string, or a JSON body), or the same object as a JSON string.
 */
export const filtersParamSchema = z.preprocess((value) => {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}, filtersSchema);

export const dataEnvelope = <T extends z.ZodType>(item: T) => z.object({ data: item });
export const listEnvelope = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });
