import type { EventRule, Norms } from '@kontrol/contracts';

/** A current template's norms and rules as stored (JSON text, docs/events.md, "Templates"). */

export function parseNorms(text: string): Norms {
  return JSON.parse(text) as Norms;
}

export function parseRules(text: string): EventRule[] {
  return JSON.parse(text) as EventRule[];
}
