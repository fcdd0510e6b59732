import type { SupportMessage } from '@kontrol/contracts';
import type { SupportMessageRow } from './support-messages.repository.js';

export function toSupportMessage(row: SupportMessageRow): SupportMessage {
  const fromSupport = row.from_support === 1;
  return {
    id: row.id,
    text: row.text,
    from: fromSupport ? 'support' : 'organisation',
    author: { id: fromSupport ? null : row.author_id, name: row.author_name },
    created_at: row.created_at,
    read_at: row.read_at,
  };
}
