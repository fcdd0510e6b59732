import type { RecipeBind } from '@kontrol/contracts';
import type { BindView } from './recipe-deploy.repository.js';

export function toBind(row: BindView): RecipeBind {
  return {
    id: row.id,
    device_id: row.device_id,
    recipe_id: row.recipe_id,
    set_id: row.set_id,
    version: row.version,
    crc: row.crc,
    state: row.state,
    error: row.error as RecipeBind['error'],
    reported_crc: row.reported_crc,
    attempts: row.attempts,
    outdated: row.recipe_version !== row.version,
    updated_at: row.updated_at,
  };
}
