import { ActionIcon, Drawer, Indicator } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format';
import { useSupportUnread } from '../api/get-support-unread';
import { SupportConversation } from './support-conversation';

/** A speech bubble; drawn here, as the console has no icon set. */
function ChatIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill="none" aria-hidden="true">
      <path
        d="M4 5h16v11H9l-5 4V5z"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinejoin="round"
        strokeLinecap="round"
      />
    </svg>
  );
}

/**
 * The support chat for the account header: a button showing how many of support's messages are
 * unread (asked for every SUPPORT_UNREAD_POLL_MS), opening a drawer with the conversation. Every
 * signed-in user may use it.
 */
export function SupportChatButton() {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  const unread = useSupportUnread().data ?? 0;
  const label =
    unread > 0 ? t('Support chat: {{unread}} unread', { unread: formatNumber(unread) }) : t('Support chat');

  return (
    <>
      <Indicator
        // The button's name says the count; the badge repeats it for the eye only.
        // Formatted only when shown: the page's first number formatter loads the language's data.
        label={
          <span aria-hidden="true">{unread === 0 ? '' : unread > 99 ? '99+' : formatNumber(unread)}</span>
        }
        disabled={unread === 0}
        size={16}
        color="red"
        offset={4}
        inline
      >
        <ActionIcon variant="default" size="lg" aria-label={label} title={label} onClick={open}>
          <ChatIcon />
        </ActionIcon>
      </Indicator>
      <Drawer
        opened={opened}
        onClose={close}
        position="right"
        size="md"
        title={t('Support')}
        closeButtonProps={{ 'aria-label': t('Close the chat') }}
        styles={{
          content: { display: 'flex', flexDirection: 'column' },
          body: {
            flex: 1,
            minHeight: 0,
            display: 'flex',
            flexDirection: 'column',
            paddingBottom: 'var(--mantine-spacing-md)',
          },
        }}
      >
        <SupportConversation />
      </Drawer>
    </>
  );
}
