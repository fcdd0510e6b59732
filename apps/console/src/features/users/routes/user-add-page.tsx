import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { useCurrentUser } from '../../auth/use-current-user';
import { useCreateUser } from '../api/create-user';
import { userBody, UserForm } from '../components/user-form';

/** What the user page is told after an invitation: it shows that the e-mail went out. */
export interface UserPageState {
  invited?: boolean;
}

/**
 * `/account/users/add`: invite a user (name, e-mail, role, access role, language). The server
 * e-mails them a link to choose a password; their page opens with a notice that it was sent.
 */
export function UserAddPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateUser();
  const current = useCurrentUser();
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
      <UserForm
        submit={(values) => create.mutateAsync(userBody(values))}
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
