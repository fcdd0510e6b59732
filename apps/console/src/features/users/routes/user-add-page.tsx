import { LOCALES, translate } from '@kontrol/contracts';
import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { FormFailure } from '../../../components/form-failure';
import { paths } from '../../../config/paths';
import { statusOf, toApiFailure, type ApiFailure } from '../../../lib/api-errors';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { sendVerificationEmail } from '../../../lib/auth/profile';
import { useCreateUser } from '../api/create-user';
import { userBody, UserForm } from '../components/user-form';

/** What the user page is told after an invitation: it shows that the e-mail went out. */
export interface UserPageState {
  invited?: boolean;
}

/**
 * The server's 403 for an inviter whose own e-mail is not confirmed (docs/people.md, "Who may
 * invite"): told from other 403s by its message, in either language.
 */
function asksToVerifyFirst(error: unknown): boolean {
  if (statusOf(error) !== 403) return false;
  const failure = toApiFailure(error);
  return (
    failure.kind === 'http' &&
    LOCALES.some((locale) => translate(locale, 'users.verify_first') === failure.message)
  );
}

/**
 * `/account/users/add`: invite a user (name, e-mail, role, access role, language). The server
 * e-mails them a link to choose a password; their page opens with a notice that it was sent. An
 * admin whose own e-mail is not confirmed is refused, and offered the confirmation e-mail again.
 */
export function UserAddPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateUser();
  const current = useCurrentUser();
  const [verifyFirst, setVerifyFirst] = useState(false);
  const back = (
    <Anchor component={Link} to={paths.account.users.list} size="sm">
      ← {t('All users')}
    </Anchor>
  );
  if (!current.isAdmin) {
    return (
      <Stack gap="md">
        <Alert color="gray">{t('Only administrators invite users and change access roles.')}</Alert>
        {back}
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      {back}
      <Text size="sm" c="dimmed" maw={720}>
        {t('The user gets an e-mail with a link to choose a password. Until then the invitation is pending.')}
      </Text>
      {verifyFirst && <ResendVerification />}
      <UserForm
        submit={async (values) => {
          try {
            return await create.mutateAsync(userBody(values));
          } catch (error) {
            if (asksToVerifyFirst(error)) setVerifyFirst(true);
            throw error;
          }
        }}
        onSuccess={(user) =>
          void navigate(paths.account.users.detail(user.id), {
            replace: true,
            state: { invited: true } satisfies UserPageState,
          })
        }
        submitLabel={t('Send the invitation')}
        emailDescription={t('The invitation goes to this address.')}
      />
    </Stack>
  );
}

/** The confirmation e-mail again (`POST /api/email/verification-notification`), and its answer. */
function ResendVerification() {
  const { t } = useTranslation();
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const [failure, setFailure] = useState<ApiFailure | null>(null);
  const send = async () => {
    setSending(true);
    setFailure(null);
    try {
      setSent(await sendVerificationEmail());
    } catch (error) {
      setFailure(toApiFailure(error));
    } finally {
      setSending(false);
    }
  };
  return (
    <Alert color="yellow" maw={720}>
      <Stack gap="sm" align="flex-start">
        <Text size="sm">
          {t('Your e-mail address is not confirmed yet. Follow the link in the e-mail we sent you.')}
        </Text>
        <FormFailure failure={failure} fields={[]} />
        {sent && (
          <Text size="sm" role="status">
            {sent}
          </Text>
        )}
        <Button variant="default" loading={sending} onClick={() => void send()}>
          {t('Send the e-mail again')}
        </Button>
      </Stack>
    </Alert>
  );
}
