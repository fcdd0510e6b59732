import { Alert, Button, Stack } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageLoader } from '../../../components/page-loader';
import { paths } from '../../../config/paths';
import { endsSession, toApiFailure, type ApiFailure } from '../../../lib/api-errors';
import { logout } from '../api/logout';
import { resetSession } from '../session';

/**
 * `/auth/logout`: ends the session on the server, clears everything the console holds, marks the
 * browser guest and goes to the login page (SPEC §4). When the server cannot be told, the user
 * stays signed in and sees why.
 */
export function LogoutPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<ApiFailure | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let cancelled = false;
    logout()
      .catch((error: unknown) => {
        // 401/419: the session is already gone, which is what the user asked for.
        if (!endsSession(error)) throw error;
      })
      .then(
        () => {
          if (cancelled) return;
          resetSession();
          void navigate(paths.auth.login, { replace: true });
        },
        (error: unknown) => {
          if (!cancelled) setFailure(toApiFailure(error));
        },
      );
    return () => {
      cancelled = true;
    };
  }, [attempt, navigate]);

  if (!failure) return <PageLoader />;
  return (
    <Stack maw={420} mx="auto" mt="xl" p="md">
      <Alert color="red" role="alert" title={t('You are still signed in')}>
        {failure.kind === 'connection' ? t('Connection error. Please try again later') : failure.message}
      </Alert>
      <Button
        onClick={() => {
          setFailure(null);
          setAttempt((n) => n + 1);
        }}
      >
        {t('Try again')}
      </Button>
      <Button variant="default" onClick={() => void navigate(-1)}>
        {t('Back')}
      </Button>
    </Stack>
  );
}
