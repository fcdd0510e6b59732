import type { AuthUser } from '@kontrol/contracts';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Group,
  List,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../../../components/language-switch';
import { ScreenTitle } from '../../../components/screen-title';
import { toApiFailure, type ApiFailure } from '../../../lib/api-errors';
import { login } from '../api/login';

/** The fields this form shows; errors for any other field are listed in the alert instead. */
const FORM_FIELDS = ['email', 'password'] as const;

export type LoginScreenProps = {
  onSignedIn: (user: AuthUser) => void;
  /** A failure from before this screen appeared (loading the user), shown until the next try. */
  initialFailure?: ApiFailure | null;
};

export function LoginScreen({ onSignedIn, initialFailure = null }: LoginScreenProps) {
  const { t } = useTranslation();
  useDocumentTitle(`${t('Sign in')} · Kontrol`);

  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<ApiFailure | null>(initialFailure);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  const fieldErrors = failure?.kind === 'validation' ? failure.errors : {};
  const fieldError = (field: string) => fieldErrors[field]?.join(' ');
  const otherErrors = Object.entries(fieldErrors)
    .filter(([field]) => !(FORM_FIELDS as readonly string[]).includes(field))
    .flatMap(([, messages]) => messages);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitting(true);
    setFailure(null);
    try {
      onSignedIn(await login({ email, password, remember }));
    } catch (error) {
      const next = toApiFailure(error);
      setFailure(next);
      setSubmitting(false);
      if (next.kind === 'validation') {
        // Take the user to the first field that needs fixing.
        if (next.errors.email) emailRef.current?.focus();
        else if (next.errors.password) passwordRef.current?.focus();
      }
    }
  }

  return (
    <Box component="main" mih="100dvh" p="md" style={{ display: 'grid', placeItems: 'center' }}>
      <Paper withBorder shadow="sm" radius="md" p="xl" w="100%" maw={420}>
        <Group justify="space-between" mb="lg">
          <Text fw={700} size="lg">
            Kontrol
          </Text>
          <LanguageSwitch />
        </Group>
        <ScreenTitle size="h2" mb="lg">
          {t('Sign in to your account')}
        </ScreenTitle>

        <form onSubmit={(event) => void handleSubmit(event)} noValidate>
          <Stack gap="md">
            {failure?.kind === 'validation' && (
              <Alert color="red" title={t('Please fix the following errors')}>
                {otherErrors.length > 0 && (
                  <List size="sm">
                    {otherErrors.map((message) => (
                      <List.Item key={message}>{message}</List.Item>
                    ))}
                  </List>
                )}
              </Alert>
            )}
            {failure && failure.kind !== 'validation' && (
              <Alert color="red">
                {failure.kind === 'connection'
                  ? t('Connection error. Please try again later')
                  : failure.message}
              </Alert>
            )}

            <TextInput
              ref={emailRef}
              label={t('E-mail')}
              type="email"
              name="email"
              autoComplete="username"
              inputMode="email"
              spellCheck={false}
              value={email}
              onChange={(event) => setEmail(event.currentTarget.value)}
              error={fieldError('email')}
            />
            <PasswordInput
              ref={passwordRef}
              label={t('Password')}
              name="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
              error={fieldError('password')}
              visibilityToggleFocusable
              visibilityToggleButtonProps={{ 'aria-label': t('Show password') }}
            />
            <Checkbox
              label={t('Remember me')}
              name="remember"
              checked={remember}
              onChange={(event) => setRemember(event.currentTarget.checked)}
            />
            <Button type="submit" fullWidth loading={submitting}>
              {t('Sign in')}
            </Button>
          </Stack>
        </form>
      </Paper>
    </Box>
  );
}
