import { LEDGER_KINDS, type LedgerKind } from '@kontrol/contracts';
import type { LedgerFilters } from './api/get-balance-log';

/**
 * The history tab's query string (`''`: any): `kind` a comma-separated list of ledger kinds,
 * `from`/`to` local dates `YYYY-MM-DD`, `page` the page of the list.
 */
export const HISTORY_PARAMS = { kind: '', from: '', to: '', page: '1' } as const;
export type HistoryParams = Record<keyof typeof HISTORY_PARAMS, string>;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The first or the last moment of a local date (the browser's zone), or null for anything else. */
export function localDay(date: string, edge: 'start' | 'end'): number | null {
  if (!DATE.test(date)) return null;
  const ms = new Date(`${date}T${edge === 'start' ? '00:00:00.000' : '23:59:59.999'}`).getTime();
  return Number.isNaN(ms) ? null : ms;
}

/** The kinds named in `kind=payment,charge`, known ones only, in the contracts' order. */
export function parseKinds(text: string): LedgerKind[] {
  const named = new Set(text.split(','));
  return LEDGER_KINDS.filter((kind) => named.has(kind));
}

export function parsePage(text: string): number {
  const page = Number.parseInt(text, 10);
  return Number.isInteger(page) && page > 0 ? page : 1;
}

/** The filters the query string asks for: from the start of `from` to the end of `to`. */
export function historyFilters(params: HistoryParams): LedgerFilters {
  return {
    kinds: parseKinds(params.kind),
    from: localDay(params.from, 'start'),
    to: localDay(params.to, 'end'),
  };
}
