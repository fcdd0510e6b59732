import { Alert, Anchor, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useCreateRole } from '../api/create-role';
import { RoleForm } from '../components/role-form';

/** `/account/users/roles/add`; the new role's page opens after saving. Admins only. */
export function RoleAddPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateRole();
  const current = useCurrentUser();
  const back = (
    <Anchor component={Link} to={paths.account.users.roles} size="sm">
      ← {t('All access roles')}
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
      <RoleForm
        submit={(body) => create.mutateAsync(body)}
        onSuccess={(role) => void navigate(paths.account.users.role(role.id), { replace: true })}
        submitLabel={t('Add role')}
      />
    </Stack>
  );
}
