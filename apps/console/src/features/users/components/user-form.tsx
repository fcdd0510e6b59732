import type { AclRole, Locale, User, UserRole } from '@kontrol/contracts';
import { LOCALES, NAME_MAX_LENGTH, USER_ROLES } from '@kontrol/contracts';
import { Button, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { EmailField } from '../../../components/form-fields';
import { FormFailure } from '../../../components/form-failure';
import { useApiForm } from '../../../lib/use-api-form';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useReferenceList } from '../../../lib/reference-data/use-reference-data';
import { aclRoleName, LANGUAGE_NAMES, useUserLabels } from '../user-labels';

export interface UserFormValues extends Record<string, unknown> {
  name: string;
  email: string;
  role: UserRole;
  /** The access role's id as the select holds it; null for none. */
  acl_role_id: string | null;
  locale: Locale;
}

/** The form's values as the API's fields. */
export function userBody(values: UserFormValues) {
  return {
    name: values.name,
    email: values.email,
    role: values.role,
    acl_role_id: values.acl_role_id === null ? null : Number(values.acl_role_id),
    locale: values.locale,
  };
}

/**
 * Name, e-mail, role, access role and language of a user: the invite page and the user page share
 * it. `ownAccount`: the role and the access role are shown, not offered (nobody changes their own;
 * the server refuses it too), and `submit` gets them unchanged.
 */
export function UserForm({
  user,
  ownAccount = false,
  submit,
  onSuccess,
  submitLabel,
  emailDescription,
}: {
  user?: User;
  ownAccount?: boolean;
  submit: (values: UserFormValues) => Promise<User>;
  onSuccess: (user: User) => void;
  submitLabel: string;
  emailDescription?: string;
}) {
  const { t } = useTranslation();
  const labels = useUserLabels();
  const roles = useReferenceList<AclRole>(useCurrentUser(), 'aclRoles');
  const { form, onSubmit, submitting, failure, fields } = useApiForm<UserFormValues, User>({
    initialValues: {
      name: user?.name ?? '',
      email: user?.email ?? '',
      role: user?.role ?? 'regular',
      acl_role_id: user?.acl_role_id == null ? null : String(user.acl_role_id),
      locale: user?.locale ?? 'ru',
    },
    submit,
    onSuccess: (saved, changed) => {
      changed.resetDirty();
      onSuccess(saved);
    },
  });
  const roleData = roles.map((role) => ({ value: String(role.id), label: role.name }));
  // A role the list does not hold (yet) still shows by name.
  if (user?.acl_role && !roles.some((role) => role.id === user.acl_role?.id)) {
    roleData.push({ value: String(user.acl_role.id), label: user.acl_role.name });
  }

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md" maw={720}>
        <FormFailure
          failure={failure}
          fields={ownAccount ? fields.filter((field) => field !== 'role' && field !== 'acl_role_id') : fields}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('Name')}
            name="name"
            required
            maxLength={NAME_MAX_LENGTH}
            autoComplete="off"
            {...form.getInputProps('name')}
          />
          <EmailField
            required
            autoComplete="off"
            description={emailDescription}
            {...form.getInputProps('email')}
          />
        </SimpleGrid>
        {ownAccount ? (
          <Stack gap={4}>
            <Text size="sm">
              {t('Role')}: {labels.role[form.values.role]}
            </Text>
            <Text size="sm">
              {t('Access role')}: {user?.acl_role ? aclRoleName(user.acl_role, roles) : t('None')}
            </Text>
            <Text size="xs" c="dimmed">
              {t('Your own role and access role are changed by another administrator.')}
            </Text>
          </Stack>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label={t('Role')}
              description={t('Administrators manage users, roles and settings.')}
              data={USER_ROLES.map((role) => ({ value: role, label: labels.role[role] }))}
              allowDeselect={false}
              {...form.getInputProps('role')}
            />
            <Select
              label={t('Access role')}
              description={t('The sections of the console the user sees.')}
              placeholder={t('None')}
              data={roleData}
              clearable
              searchable
              nothingFoundMessage={t('Nothing found')}
              {...form.getInputProps('acl_role_id')}
            />
          </SimpleGrid>
        )}
        <Select
          label={t('Language')}
          description={t('The language of the e-mails the user gets.')}
          data={LOCALES.map((locale) => ({ value: locale, label: LANGUAGE_NAMES[locale] }))}
          allowDeselect={false}
          maw={340}
          {...form.getInputProps('locale')}
        />
        <Group>
          <Button type="submit" loading={submitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
