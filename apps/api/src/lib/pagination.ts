import {
  DEFAULT_PER_PAGE,
  type FilterCondition,
  type FilterOperator,
  type Filters,
  type PaginationMeta,
} from '@kontrol/contracts';
import type { FastifyRequest } from 'fastify';
import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import { FieldValidationError } from '@kontrol/server-kit';

export interface Paged<T> {
  data: T[];
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: PaginationMeta;
}

/**
 * Laravel's paginator: one count and one page query, sent together. `path` is the request's URL without query,
 * and the links carry only `page` (and `per_page` when not the default), as Laravel's do.
 */
export async function paginate<DB, TB extends keyof DB, O>(
  request: FastifyRequest,
  query: SelectQueryBuilder<DB, TB, O>,
  page: { page: number; per_page: number },
): Promise<Paged<O>> {
  const perPage = page.per_page;
  const offset = (page.page - 1) * perPage;
  // Both at once: on PostgreSQL each is a round trip of its own connection, and a page past the
  // end costs an empty read, not a second wait.
  const [counted, data] = await Promise.all([
    query
      .clearSelect()
      .clearOrderBy()
      .select(sql<number>`count(*)`.as('total'))
      .executeTakeFirstOrThrow(),
    query.limit(perPage).offset(offset).execute(),
  ]);
  const total = Number((counted as { total: number | string }).total);
  const lastPage = Math.max(1, Math.ceil(total / perPage));

  const path = `${request.protocol}://${request.host}${request.url.split('?')[0] ?? ''}`;
  const link = (n: number) =>
    `${path}?page=${n}${perPage === DEFAULT_PER_PAGE ? '' : `&per_page=${perPage}`}`;
  return {
    data,
    links: {
      first: link(1),
      last: link(lastPage),
      prev: page.page > 1 ? link(Math.min(page.page - 1, lastPage)) : null,
      next: page.page < lastPage ? link(page.page + 1) : null,
    },
    meta: {
      current_page: page.page,
      from: data.length > 0 ? offset + 1 : null,
      last_page: lastPage,
      path,
      per_page: perPage,
      to: data.length > 0 ? offset + data.length : null,
      total,
    },
  };
}

/**
 * docs/contract.md, "HTTP calls"'s list endpoints: without `page` the whole list as `{data}` (reference data), with it
 * Laravel's paged shape; each row through `present`.
 */
export async function listOrPage<DB, TB extends keyof DB, O, Item>(
  request: FastifyRequest,
  query: SelectQueryBuilder<DB, TB, O>,
  page: { page: number | undefined; per_page: number | undefined },
  present: (row: O) => Item,
): Promise<{ data: Item[] } | Paged<Item>> {
  if (page.page === undefined) return { data: (await query.execute()).map(present) };
  const paged = await paginate(request, query, {
    page: page.page,
    per_page: page.per_page ?? DEFAULT_PER_PAGE,
  });
  return { ...paged, data: paged.data.map(present) };
}

/** One filterable field of a resource: the SQL column it maps to and what may be asked of it. */
export interface FilterField {
  column: string;
  /**
   * `number`: an `integer` column (the ids), whole numbers within PostgreSQL's integer range;
   * `bigint`: a `bigint` column (money in kopecks), whole numbers JavaScript holds exactly;
   * `moment`: a column of epoch milliseconds, filtered by ISO 8601 moments (or epoch ms).
   */
  type: 'string' | 'number' | 'bigint' | 'boolean' | 'date' | 'moment';
  operators: readonly FilterOperator[];
}
export type FilterWhitelist = Record<string, FilterField>;

type Scalar = string | number;

/** PostgreSQL's `integer`: a value past it is refused by the database rather than matching nothing. */
const INTEGER_MAX = 2_147_483_647;

/**
 * The filter value as the column's type holds it, or undefined (a 422): a value the database
 * could not compare with the column (1.5 or 1e300 for an integer) is the client's mistake, and
 * must not reach PostgreSQL, which would refuse it with an error.
 */
function coerce(field: FilterField, value: unknown): Scalar | undefined {
  switch (field.type) {
    case 'number':
    case 'bigint': {
      const n =
        typeof value === 'number'
          ? value
          : typeof value === 'string' && value.trim() !== ''
            ? Number(value)
            : NaN;
      if (!Number.isSafeInteger(n)) return undefined;
      return field.type === 'number' && Math.abs(n) > INTEGER_MAX ? undefined : n;
    }
    case 'boolean':
      if (value === true || value === 'true' || value === 1 || value === '1') return 1;
      if (value === false || value === 'false' || value === 0 || value === '0') return 0;
      return undefined;
    case 'date': {
      if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) return undefined;
      return new Date(value).toISOString();
    }
    case 'moment': {
      const ms = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : NaN;
      return Number.isSafeInteger(ms) ? ms : undefined;
    }
    default:
      return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
  }
}

function escapeLike(value: string) {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Applies `filters[field] = {operator, value}` through the resource's whitelist: an unknown field,
 * an operator the field does not allow or a value of the wrong type is a 422, and every value goes
 * to the database as a bound parameter, never as SQL.
 */
export function applyFilters<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  filters: Filters | undefined,
  whitelist: FilterWhitelist,
): SelectQueryBuilder<DB, TB, O> {
  if (!filters) return query;
  const errors: Record<string, ('filter.field' | 'filter.operator' | 'filter.value')[]> = {};
  const conditions: ((eb: ExpressionBuilder<DB, TB>) => ReturnType<ExpressionBuilder<DB, TB>['and']>)[] = [];

  for (const [name, condition] of Object.entries(filters)) {
    const field = Object.hasOwn(whitelist, name) ? whitelist[name] : undefined;
    const key = `filters.${name}`;
    if (!field) {
      errors[key] = ['filter.field'];
      continue;
    }
    if (!field.operators.includes(condition.operator)) {
      errors[key] = ['filter.operator'];
      continue;
    }
    const built = buildCondition<DB, TB>(field, condition);
    if (!built) {
      errors[key] = ['filter.value'];
      continue;
    }
    conditions.push(built);
  }
  if (Object.keys(errors).length > 0) throw new FieldValidationError(errors);
  return conditions.reduce((q, condition) => q.where((eb) => condition(eb)), query);
}

function buildCondition<DB, TB extends keyof DB>(field: FilterField, condition: FilterCondition) {
  // The column comes from the whitelist, never from the request.
  const column = sql.ref(field.column);
  const { operator, value } = condition;
  if (operator === 'in') {
    if (!Array.isArray(value) || value.length === 0) return undefined;
    const values = value.map((v) => coerce(field, v));
    if (values.some((v) => v === undefined)) return undefined;
    return (eb: ExpressionBuilder<DB, TB>) => eb.and([eb(column, 'in', values as Scalar[])]);
  }
  if (operator === 'between') {
    if (!Array.isArray(value) || value.length !== 2) return undefined;
    const [from, to] = value.map((v) => coerce(field, v));
    if (from === undefined || to === undefined) return undefined;
    return (eb: ExpressionBuilder<DB, TB>) => eb.and([eb(column, '>=', from), eb(column, '<=', to)]);
  }
  if (value === null) {
    if (operator !== '=' && operator !== '!=') return undefined;
    return (eb: ExpressionBuilder<DB, TB>) => eb.and([eb(column, operator === '=' ? 'is' : 'is not', null)]);
  }
  if (Array.isArray(value)) return undefined;
  const scalar = coerce(field, value);
  if (scalar === undefined) return undefined;
  if (operator === 'like') {
    const pattern = `%${escapeLike(String(scalar).toLowerCase())}%`;
    return (eb: ExpressionBuilder<DB, TB>) =>
      eb.and([eb(sql`lower(${column})`, 'like', sql<string>`${pattern} escape '\\'`)]);
  }
  return (eb: ExpressionBuilder<DB, TB>) => eb.and([eb(column, operator, scalar)]);
}
