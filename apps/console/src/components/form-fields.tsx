import { PasswordInput, TextInput, type PasswordInputProps, type TextInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The e-mail field every account form has; spread `form.getInputProps('email')` into it. */
export function EmailField(props: TextInputProps) {
  const { t } = useTranslation();
  return (
    <TextInput
      label={t('E-mail')}
      type="email"
      name="email"
      inputMode="email"
      autoComplete="email"
      spellCheck={false}
      {...props}
    />
  );
}

/** A password field whose show/hide toggle has a name a screen reader can say. */
export function PasswordField(props: PasswordInputProps) {
  const { t } = useTranslation();
  return <PasswordInput visibilityToggleButtonProps={{ 'aria-label': t('Show password') }} {...props} />;
}

/** A new password and its confirmation (register, reset, profile): `password`, `password_confirmation`. */
export function NewPasswordFields({
  password,
  confirmation,
  passwordLabel,
}: {
  password: PasswordInputProps;
  confirmation: PasswordInputProps;
  passwordLabel?: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <PasswordField
        label={passwordLabel ?? t('Password')}
        name="password"
        autoComplete="new-password"
        description={t('At least 8 characters.')}
        {...password}
      />
      <PasswordField
        label={t('Confirm password')}
        name="password_confirmation"
        autoComplete="new-password"
        {...confirmation}
      />
    </>
  );
}
