import { SUPPORT_MESSAGE_MAX_LENGTH, type SupportMessage } from '@kontrol/contracts';
import { Box, Button, Center, Group, Loader, Paper, Stack, Text, Textarea } from '@mantine/core';
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFailure } from '../../../components/form-failure';
import { isAbortError, toApiFailure } from '../../../lib/api-errors';
import { formatDateTime } from '../../../lib/format';
import { useApiForm } from '../../../lib/use-api-form';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { conversationOf, useSupportMessages } from '../api/get-support-messages';
import { useMarkSupportRead } from '../api/mark-support-read';
import { useSendSupportMessage } from '../api/send-support-message';

/** Within this many pixels of the top, the older messages are asked for. */
const LOAD_OLDER_AT_PX = 48;

/**
 * The conversation with support, inside the chat drawer: the newest message at the bottom, older
 * ones loaded when scrolled to the top (or with the button there), the organisation's messages on
 * the right and support's on the left; support's messages count as read once shown. The box at the
 * bottom sends with Enter (Shift+Enter starts a new line).
 */
export function SupportConversation() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const messages = useSupportMessages();
  const { mutate: markRead } = useMarkSupportRead();
  const send = useSendSupportMessage();
  const conversation = useMemo(() => conversationOf(messages.data?.pages), [messages.data]);
  const scrollRef = useRef<HTMLDivElement>(null);
  // Where the view stood, from the bottom, when older messages were asked for: kept when they arrive.
  const fromBottom = useRef<number | null>(null);
  const newestShown = useRef<number | null>(null);
  const markedUpTo = useRef(0);

  const loadOlder = () => {
    const element = scrollRef.current;
    if (!messages.hasNextPage || messages.isFetchingNextPage) return;
    if (element) fromBottom.current = element.scrollHeight - element.scrollTop;
    void messages.fetchNextPage();
  };

  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const newest = conversation.at(-1)?.id ?? null;
    if (newest !== newestShown.current) {
      // First load, or a new message at the bottom: show it.
      newestShown.current = newest;
      fromBottom.current = null;
      element.scrollTop = element.scrollHeight;
    } else if (fromBottom.current !== null && !messages.isFetchingNextPage) {
      element.scrollTop = element.scrollHeight - fromBottom.current;
      fromBottom.current = null;
    }
  }, [conversation, messages.isFetchingNextPage]);

  // Support's messages on screen count as read.
  useEffect(() => {
    const unread = conversation.filter((message) => message.from === 'support' && message.read_at === null);
    const upTo = unread.at(-1)?.id;
    if (upTo !== undefined && upTo > markedUpTo.current) {
      markedUpTo.current = upTo;
      markRead(upTo);
    }
  }, [conversation, markRead]);

  const { form, onSubmit, submitting, failure, fields } = useApiForm<{ text: string }, SupportMessage>({
    initialValues: { text: '' },
    submit: (values) => send.mutateAsync({ text: values.text }),
    onSuccess: (_, current) => current.reset(),
  });
  const loadFailure = messages.error && !isAbortError(messages.error) ? toApiFailure(messages.error) : null;

  return (
    <Stack gap="sm" style={{ flex: 1, minHeight: 0 }}>
      <Box
        ref={scrollRef}
        onScroll={(event) => {
          if (event.currentTarget.scrollTop < LOAD_OLDER_AT_PX) loadOlder();
        }}
        style={{ flex: 1, minHeight: 200, overflowY: 'auto' }}
        tabIndex={0}
        role="region"
        aria-label={t('Conversation with support')}
        aria-busy={messages.isFetching}
      >
        {messages.isPending ? (
          <Center py="xl">
            <Loader aria-label={t('Loading…')} />
          </Center>
        ) : (
          <Stack gap="xs" pr={4}>
            <FormFailure failure={loadFailure} fields={[]} />
            {messages.hasNextPage && (
              <Center>
                <Button
                  variant="subtle"
                  size="compact-sm"
                  loading={messages.isFetchingNextPage}
                  onClick={loadOlder}
                >
                  {t('Show older messages')}
                </Button>
              </Center>
            )}
            {conversation.length === 0 && !loadFailure && (
              <Text size="sm" c="dimmed" ta="center" py="xl">
                {t('No messages yet. Ask your question: support answers here.')}
              </Text>
            )}
            <Stack component="ol" gap="xs" m={0} p={0} style={{ listStyle: 'none' }}>
              {conversation.map((message) => {
                const ours = message.from === 'organisation';
                const author = ours && message.author.id === me.id ? t('You') : message.author.name;
                return (
                  <Paper
                    key={message.id}
                    component="li"
                    p="xs"
                    radius="md"
                    maw="85%"
                    data-from={message.from}
                    style={{
                      alignSelf: ours ? 'flex-end' : 'flex-start',
                      background: ours
                        ? 'var(--mantine-color-blue-light)'
                        : 'var(--mantine-color-default-hover)',
                    }}
                  >
                    <Group gap="xs" justify="space-between" wrap="nowrap">
                      <Text size="xs" fw={600} truncate>
                        {ours ? author : t('Support: {{name}}', { name: author })}
                      </Text>
                      <Text
                        size="xs"
                        c="dimmed"
                        component="time"
                        dateTime={message.created_at}
                        style={{ flex: 'none' }}
                      >
                        {formatDateTime(message.created_at)}
                      </Text>
                    </Group>
                    <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                      {message.text}
                    </Text>
                    {ours && message.read_at !== null && (
                      <Text size="xs" c="dimmed" ta="end">
                        {t('Read by support')}
                      </Text>
                    )}
                  </Paper>
                );
              })}
            </Stack>
          </Stack>
        )}
      </Box>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="xs">
          <FormFailure failure={failure} fields={fields} />
          <Textarea
            label={t('Message to support')}
            description={t('Enter sends, Shift+Enter starts a new line.')}
            autosize
            minRows={2}
            maxRows={6}
            maxLength={SUPPORT_MESSAGE_MAX_LENGTH}
            {...form.getInputProps('text')}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
                event.preventDefault();
                if (!submitting) onSubmit();
              }
            }}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={submitting}>
              {t('Send')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
