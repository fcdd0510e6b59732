import type { AclRole, User } from '@kontrol/contracts';
import { Alert, Anchor, Badge, Button, Divider, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams, useRevalidator } from 'react-router';
import { DetailState } from '../../../components/detail-state';
import { ConfirmDeleteButton, ConfirmDeleteModal } from '../../../components/confirm-delete';
import { FormFailure } from '../../../components/form-failure';
import { NotificationSettingsForm } from '../../../components/notification-settings-form';
import { useSaveUserSettings, useUserSettings } from '../../../lib/user-settings';
import { paths } from '../../../config/paths';
import { toApiFailure } from '../../../lib/api-errors';
import { formatDateTime } from '../../../lib/format';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useReferenceList } from '../../../lib/reference-data/use-reference-data';
import { useDeleteUser } from '../api/delete-user';
import { useUser } from '../api/get-user';
import { useSendInvitation } from '../api/send-invitation';
import { useUpdateUser } from '../api/update-user';
import { parseId } from '../../../lib/parse-id';
import { userBody, UserForm } from '../components/user-form';
import { aclRoleName, LANGUAGE_NAMES, STATE_COLOURS, userState, useUserLabels } from '../user-labels';
import type { UserPageState } from './user-add-page';

/**
 * `/account/users/{id}`: a user's details and their notification settings. Admins edit the details,
 * disable or enable the user, send a new invitation while one is pending, and delete the user; on
 * their own page the role, the access role, disabling and deleting are not offered (the server
 * refuses them anyway). Anyone else reads the details; their own notification settings they edit.
 */
export function UserPage() {
  const { t } = useTranslation();
  const current = useCurrentUser();
  const id = parseId(useParams().id);
  const { data: user, isPending, error } = useUser(id ?? 0);
  const invited = (useLocation().state as UserPageState | null)?.invited === true;
  const [saved, setSaved] = useState(false);
  const update = useUpdateUser(id ?? 0);
  const labels = useUserLabels();
  const revalidator = useRevalidator();
  // Admins edit anyone's notification settings, everyone else only their own.
  const settingsShown = id !== null && (current.isAdmin || id === current.id);
  const settings = useUserSettings(id ?? 0, settingsShown);
  const saveSettings = useSaveUserSettings(id ?? 0);

  const back = (
    <Anchor component={Link} to={paths.account.users.list} size="sm">
      ← {t('All users')}
    </Anchor>
  );
  if (id === null || !user) {
    return (
      <DetailState
        invalidId={id === null}
        query={{ isPending, error }}
        notFound={t('User not found')}
        back={back}
      />
    );
  }

  const ownAccount = user.id === current.id;
  const state = userState(user);
  return (
    <Stack gap="lg">
      {back}
      <Group gap="sm">
        <Title order={2}>{user.name}</Title>
        <Badge variant="light" color={STATE_COLOURS[state]}>
          {labels.state[state]}
        </Badge>
        {ownAccount && (
          <Badge variant="outline" color="gray">
            {t('You')}
          </Badge>
        )}
      </Group>
      {invited && user.invitation_pending && (
        <Alert color="green" role="status">
          {t('The invitation was sent to {{email}}.', { email: user.email })}
        </Alert>
      )}
      {saved && (
        <Alert color="green" role="status">
          {t('Saved.')}
        </Alert>
      )}
      {current.isAdmin ? (
        <UserForm
          key={user.id}
          user={user}
          ownAccount={ownAccount}
          submit={(values) => {
            setSaved(false);
            const body = userBody(values);
            return update.mutateAsync(
              ownAccount ? { name: body.name, email: body.email, locale: body.locale } : body,
            );
          }}
          onSuccess={() => {
            setSaved(true);
            // The frame (header name) reads the signed-in user through the area's loader.
            if (ownAccount) void revalidator.revalidate();
          }}
          submitLabel={t('Save')}
        />
      ) : (
        <UserDetails user={user} />
      )}
      {current.isAdmin && !ownAccount && (
        <>
          <Divider />
          <UserActions user={user} />
        </>
      )}
      {(current.isAdmin || ownAccount) && (
        <>
          <Divider />
          <Stack gap="md" component="section" aria-labelledby="user-notifications" maw={720}>
            <Title order={3} id="user-notifications">
              {t('Notifications')}
            </Title>
            <NotificationSettingsForm key={user.id} settings={settings} save={saveSettings} />
          </Stack>
        </>
      )}
    </Stack>
  );
}

/** The details as text, for those who may not change them. */
function UserDetails({ user }: { user: User }) {
  const { t } = useTranslation();
  const labels = useUserLabels();
  const roles = useReferenceList<AclRole>(useCurrentUser(), 'aclRoles');
  const rows: [string, ReactNode][] = [
    [t('Name'), user.name],
    [t('E-mail'), user.email],
    [t('Role'), labels.role[user.role]],
    [t('Access role'), user.acl_role ? aclRoleName(user.acl_role, roles) : t('None')],
    [t('Language'), LANGUAGE_NAMES[user.locale]],
    [t('Added'), formatDateTime(user.created_at)],
  ];
  return (
    <Table variant="vertical" layout="fixed" maw={720} withTableBorder>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th w={180} scope="row">
              {label}
            </Table.Th>
            <Table.Td>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * What an admin does to another user: a new invitation while one is pending, disable (after a
 * confirmation: their sessions end) or enable, and delete (after a confirmation). The server's
 * refusals (the last administrator) show here.
 */
function UserActions({ user }: { user: User }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const update = useUpdateUser(user.id);
  // Its own mutation: a refusal shows in the confirmation dialog, not twice.
  const disable = useUpdateUser(user.id);
  const remove = useDeleteUser(user.id);
  const invitation = useSendInvitation(user.id);
  const [disabling, setDisabling] = useState(false);
  const failure = update.isError
    ? toApiFailure(update.error)
    : invitation.isError
      ? toApiFailure(invitation.error)
      : null;

  return (
    <Stack gap="sm" component="section" aria-labelledby="user-access">
      <Title order={3} id="user-access">
        {t('Access')}
      </Title>
      <FormFailure failure={failure} fields={[]} />
      {invitation.isSuccess && (
        <Alert color="green" role="status">
          {t('A new invitation was sent to {{email}}.', { email: user.email })}
        </Alert>
      )}
      {user.invitation_pending && !user.disabled && (
        <Text size="sm">{t('The user has not accepted the invitation yet.')}</Text>
      )}
      {user.disabled && <Text size="sm">{t('The user is disabled and cannot sign in.')}</Text>}
      <Group gap="sm">
        {user.invitation_pending && !user.disabled && (
          <Button
            variant="default"
            loading={invitation.isPending}
            onClick={() => {
              update.reset();
              invitation.mutate();
            }}
          >
            {t('Send the invitation again')}
          </Button>
        )}
        {user.disabled ? (
          <Button
            variant="default"
            loading={update.isPending}
            onClick={() => {
              invitation.reset();
              update.mutate({ disabled: false });
            }}
          >
            {t('Enable the user')}
          </Button>
        ) : (
          <Button variant="default" onClick={() => setDisabling(true)}>
            {t('Disable the user')}
          </Button>
        )}
        <ConfirmDeleteButton
          label={t('Delete the user')}
          title={t('Delete the user «{{name}}»?', { name: user.name })}
          message={t('They can no longer sign in. This cannot be undone.')}
          onConfirm={async () => {
            await remove.mutateAsync();
            await navigate(paths.account.users.list, { replace: true });
          }}
        />
      </Group>
      <ConfirmDeleteModal
        opened={disabling}
        onClose={() => setDisabling(false)}
        title={t('Disable the user «{{name}}»?', { name: user.name })}
        message={t('They are signed out at once and cannot sign in until enabled again.')}
        confirmLabel={t('Disable')}
        onConfirm={() => {
          update.reset();
          invitation.reset();
          return disable.mutateAsync({ disabled: true });
        }}
      />
    </Stack>
  );
}
