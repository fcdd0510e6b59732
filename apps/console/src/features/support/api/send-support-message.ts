import type { SupportMessage, SupportMessageBody } from '@kontrol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { supportKeys } from './keys';

/** POST /api/messages {text} → 201 with the message. */
export async function sendSupportMessage(body: SupportMessageBody): Promise<SupportMessage> {
  return (await apiClient.post<{ data: SupportMessage }>('/messages', body)).data.data;
}

/** Sends a message to support; the conversation is read again, so it shows at the bottom. */
export function useSendSupportMessage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: sendSupportMessage,
    onSuccess: () => client.invalidateQueries({ queryKey: supportKeys.messages }),
  });
}
