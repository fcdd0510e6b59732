import type { AuthUser } from '@kontrol/contracts';
import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { EmailField, NewPasswordFields } from '../../../components/form-fields';
import { FormFailure } from '../../../components/form-failure';
import { ScreenTitle } from '../../../components/screen-title';
import { paths } from '../../../config/paths';
import { getLocale } from '../../../lib/i18n';
import { useApiForm } from '../../../lib/use-api-form';
import { register } from '../api/register';
import { landingPath, setSignedIn } from '../../../lib/auth/session';

/** `/auth/register`: a new organisation and its administrator, signed in straight away. */
export function RegisterPage() {
  const { t } = useTranslation();
  useDocumentTitle(`${t('Create an account')} · Kontrol`);
  const navigate = useNavigate();
  const { form, onSubmit, submitting, failure, fields } = useApiForm({
    initialValues: { name: '', organisation_name: '', email: '', password: '', password_confirmation: '' },
    submit: (values) =>
      register({
        ...values,
        organisation_name: values.organisation_name.trim() || undefined,
        locale: getLocale(),
      }),
    onSuccess: (user: AuthUser) => {
      setSignedIn(user);
      void navigate(landingPath(user), { replace: true });
    },
  });

  return (
    <>
      <ScreenTitle size="h2" mb="xs">
        {t('Create an account')}
      </ScreenTitle>
      <Text size="sm" c="dimmed" mb="lg">
        {t('A new organisation is created with you as its administrator.')}
      </Text>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <FormFailure failure={failure} fields={fields} />
          <TextInput label={t('Name')} name="name" autoComplete="name" {...form.getInputProps('name')} />
          <TextInput
            label={t('Organisation name')}
            name="organisation_name"
            autoComplete="organization"
            {...form.getInputProps('organisation_name')}
          />
          <EmailField {...form.getInputProps('email')} />
          <NewPasswordFields
            password={form.getInputProps('password')}
            confirmation={form.getInputProps('password_confirmation')}
          />
          <Button type="submit" fullWidth loading={submitting}>
            {t('Sign up')}
          </Button>
          <Anchor component={Link} to={paths.auth.login} size="sm">
            {t('I already have an account')}
          </Anchor>
        </Stack>
      </form>
    </>
  );
}
