import type { AclModule, AclRole, AclRoleAddBody } from '@kontrol/contracts';
import { ACL_ROLE_NAME_MAX_LENGTH } from '@kontrol/contracts';
import { Button, Checkbox, Group, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { FormFailure } from '../../../components/form-failure';
import { moduleLabel } from '../../../lib/module-labels';
import { useApiForm } from '../../../lib/use-api-form';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useReferenceList } from '../../../lib/reference-data/use-reference-data';

interface RoleFormValues extends Record<string, unknown> {
  name: string;
  /** Module ids as the checkboxes hold them. */
  module_ids: string[];
}

/**
 * An access role's name and modules (the console sections its holders see), one checkbox per
 * client-system module of the reference list, labelled as the sidebar names it. The add page and
 * the role page share it.
 */
export function RoleForm({
  role,
  submit,
  onSuccess,
  submitLabel,
}: {
  role?: AclRole;
  submit: (body: Required<AclRoleAddBody>) => Promise<AclRole>;
  onSuccess: (role: AclRole) => void;
  submitLabel: string;
}) {
  const { t } = useTranslation();
  const modules = useReferenceList<AclModule>(useCurrentUser(), 'aclModules');
  const { form, onSubmit, submitting, failure, fields } = useApiForm<RoleFormValues, AclRole>({
    initialValues: {
      name: role?.name ?? '',
      module_ids: role?.modules.map((module) => String(module.id)) ?? [],
    },
    submit: (values) =>
      submit({
        name: values.name,
        // In the list's order, whatever order they were ticked in.
        module_ids: modules.map((module) => module.id).filter((id) => values.module_ids.includes(String(id))),
      }),
    onSuccess: (saved, changed) => {
      changed.resetDirty();
      onSuccess(saved);
    },
  });
  // The server names a bad module `module_ids` or `module_ids.3`: either shows under the list.
  const moduleError = Object.entries(form.errors)
    .filter(([field]) => field === 'module_ids' || field.startsWith('module_ids.'))
    .map(([, message]) => (typeof message === 'string' ? message : ''))
    .join(' ');

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md" maw={720}>
        <FormFailure
          failure={failure}
          fields={
            failure?.kind === 'validation'
              ? [...fields, ...Object.keys(failure.errors).filter((f) => f.startsWith('module_ids.'))]
              : fields
          }
        />
        <TextInput
          label={t('Role name')}
          name="name"
          required
          maxLength={ACL_ROLE_NAME_MAX_LENGTH}
          {...form.getInputProps('name')}
        />
        <Checkbox.Group
          label={t('Sections')}
          description={t('What the holders of this role see in the console.')}
          {...form.getInputProps('module_ids')}
          error={moduleError || undefined}
        >
          <SimpleGrid cols={{ base: 1, xs: 2, sm: 3 }} spacing="xs" mt="xs">
            {modules.map((module) => (
              <Checkbox key={module.id} value={String(module.id)} label={moduleLabel(module.slug)} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        <Group>
          <Button type="submit" loading={submitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
