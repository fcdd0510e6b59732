import type { DeviceEventTemplate } from '@kontrol/contracts';
import { parseNorms, parseRules } from '@kontrol/domain';
import type { TemplateRow } from './templates.repository.js';

export function toTemplate(row: TemplateRow, deviceIds: readonly number[]): DeviceEventTemplate {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    device_type_id: row.device_type_id,
    device_id: row.device_id,
    norms: parseNorms(row.norms),
    rules: parseRules(row.rules),
    device_ids: [...deviceIds],
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
