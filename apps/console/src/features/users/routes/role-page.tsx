import type { AclRole } from '@kontrol/contracts';
import { Alert, Anchor, Badge, Button, Divider, Group, List, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useRevalidator } from 'react-router';
import { DetailState } from '../../../components/detail-state';
import { ConfirmDeleteModal } from '../../../components/confirm-delete';
import { FormFailure } from '../../../components/form-failure';
import { paths } from '../../../config/paths';
import { isAbortError, toApiFailure, type ApiFailure } from '../../../lib/api-errors';
import { moduleLabel } from '../../../lib/module-labels';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useDeleteRole } from '../api/delete-role';
import { useRole } from '../api/get-role';
import { getRoleUsage } from '../api/get-role-usage';
import { useUpdateRole } from '../api/update-role';
import { parseId } from '../../../lib/parse-id';
import { RoleForm } from '../components/role-form';

/**
 * `/account/users/roles/{id}`: an access role's name and modules. Admins edit it and delete it once
 * no user holds it (asked right before: a role in use says how many hold it and stays). The admin
 * role, and any role for those who are not admins, is shown read-only.
 */
export function RolePage() {
  const { t } = useTranslation();
  const current = useCurrentUser();
  const revalidator = useRevalidator();
  const id = parseId(useParams().id);
  const { data: role, isPending, error } = useRole(id ?? 0);
  const update = useUpdateRole(id ?? 0);
  const [saved, setSaved] = useState(false);

  const back = (
    <Anchor component={Link} to={paths.account.users.roles} size="sm">
      ← {t('All access roles')}
    </Anchor>
  );
  if (id === null || !role) {
    return (
      <DetailState
        invalidId={id === null}
        query={{ isPending, error }}
        notFound={t('Access role not found')}
        back={back}
      />
    );
  }

  const editable = current.isAdmin && !role.is_admin_role;
  return (
    <Stack gap="lg">
      {back}
      <Group gap="sm">
        <Title order={2}>{role.name}</Title>
        {role.is_admin_role && (
          <Badge variant="light" color="gray">
            {t('Built in')}
          </Badge>
        )}
      </Group>
      {saved && (
        <Alert color="green" role="status">
          {t('Saved.')}
        </Alert>
      )}
      {editable ? (
        <RoleForm
          key={role.id}
          role={role}
          submit={(body) => {
            setSaved(false);
            return update.mutateAsync(body);
          }}
          onSuccess={() => {
            setSaved(true);
            // Holding this role, the signed-in user's own sections (the sidebar) may have changed.
            if (current.acl_role?.id === role.id) void revalidator.revalidate();
          }}
          submitLabel={t('Save')}
        />
      ) : (
        <RoleModules role={role} />
      )}
      {editable && (
        <>
          <Divider />
          <RoleDeletion role={role} />
        </>
      )}
    </Stack>
  );
}

/** The role's sections as a list, for a role that is not changed here. */
function RoleModules({ role }: { role: AclRole }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" maw={720}>
      {role.is_admin_role && (
        <Text size="sm" c="dimmed">
          {t('The administrators’ role is built in: it cannot be changed or deleted.')}
        </Text>
      )}
      <Text size="sm" fw={500} id="role-modules">
        {t('Sections')}
      </Text>
      {role.modules.length === 0 ? (
        <Text size="sm">{t('None')}</Text>
      ) : (
        <List size="sm" aria-labelledby="role-modules">
          {role.modules.map((module) => (
            <List.Item key={module.id}>{moduleLabel(module.slug)}</List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}

/**
 * "Delete the role": first asks whether anyone holds it. In use, it says how many and offers no
 * deletion; otherwise a confirmation, then the roles list. The server refuses a role in use (409)
 * anyway: someone may have been given it in between, and the dialog then shows why.
 */
function RoleDeletion({ role }: { role: AclRole }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const remove = useDeleteRole(role.id);
  const [checking, setChecking] = useState(false);
  const [holders, setHolders] = useState<number | null>(null);
  const [failure, setFailure] = useState<ApiFailure | null>(null);
  const [confirming, setConfirming] = useState(false);

  const check = async () => {
    setChecking(true);
    setFailure(null);
    setHolders(null);
    try {
      const usage = await getRoleUsage(role.id);
      if (usage.is_used) setHolders(usage.users_count);
      else setConfirming(true);
    } catch (error) {
      if (!isAbortError(error)) setFailure(toApiFailure(error));
    } finally {
      setChecking(false);
    }
  };

  return (
    <Stack gap="sm" align="flex-start">
      <FormFailure failure={failure} fields={[]} />
      {holders !== null && (
        <Alert color="orange" role="alert" title={t('This role is in use')}>
          {t('Users holding it: {{number}}. Give them another access role first, then delete it.', {
            number: holders,
          })}
        </Alert>
      )}
      <Button color="red" variant="outline" loading={checking} onClick={() => void check()}>
        {t('Delete the role')}
      </Button>
      <ConfirmDeleteModal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('Delete the role «{{name}}»?', { name: role.name })}
        onConfirm={async () => {
          await remove.mutateAsync();
          await navigate(paths.account.users.roles, { replace: true });
        }}
      />
    </Stack>
  );
}
