import { Alert, Button, Stack } from '@mantine/core';
import axios from 'axios';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useRouteError } from 'react-router';
import { toApiFailure } from '../../lib/api-errors';
import { isChunkLoadError } from '../../lib/lazy-route';

/** Whether the server answers at all: its liveness probe, never cached. */
export async function serverReachable(): Promise<boolean> {
  try {
    const response = await fetch(new URL('/healthz', document.baseURI), { cache: 'no-store' });
    return response.ok;
  } catch {
    return false;
  }
}

type Cause = 'connection' | 'chunk' | 'other';

/** A page's part that did not load is a connection error when the server cannot be reached. */
function firstGuess(error: unknown): Cause {
  if (axios.isAxiosError(error)) return toApiFailure(error).kind === 'connection' ? 'connection' : 'other';
  if (isChunkLoadError(error)) return navigator.onLine ? 'chunk' : 'connection';
  return 'other';
}

/**
 * What an account page that failed to open shows, inside the frame (header, sidebar and the page's
 * title stay): with no connection (its part or its data did not arrive), the console's «Ошибка
 * подключения. Повторите попытку позже» and a retry; a part missing while the server answers (a new
 * version was deployed), a reload; anything else, an apology and a reload. A retry of a part that
 * did not load reloads the page once the server answers (the router keeps a failed part failed);
 * forms being typed keep their drafts in the tab (lib/use-api-form.ts), so nothing is lost.
 */
export function PageError() {
  const { t } = useTranslation();
  const error = useRouteError();
  const location = useLocation();
  const navigate = useNavigate();
  const [cause, setCause] = useState<Cause>(() => firstGuess(error));
  const [retrying, setRetrying] = useState(false);

  useEffect(() => {
    console.error(error);
    let cancelled = false;
    // A part that did not arrive: the probe tells a lost connection from a deploy.
    if (isChunkLoadError(error)) {
      void serverReachable().then((reachable) => {
        if (!cancelled) setCause(reachable ? 'chunk' : 'connection');
      });
    }
    return () => {
      cancelled = true;
    };
  }, [error]);

  const retry = async () => {
    setRetrying(true);
    if (!(await serverReachable())) {
      setRetrying(false);
      return;
    }
    if (isChunkLoadError(error)) {
      window.location.reload();
      return;
    }
    setRetrying(false);
    void navigate(location, { replace: true });
  };

  if (cause === 'connection') {
    return (
      <Stack maw={520} gap="md">
        <Alert color="red" role="alert">
          {t('Connection error. Please try again later')}
        </Alert>
        <Button w="fit-content" loading={retrying} onClick={() => void retry()}>
          {t('Try again')}
        </Button>
      </Stack>
    );
  }
  return (
    <Stack maw={520} gap="md">
      <Alert color="red" role="alert">
        {cause === 'chunk'
          ? t('A part of the application could not be loaded. Reload the page to continue.')
          : t('Something went wrong. Reload the page to continue.')}
      </Alert>
      <Button w="fit-content" onClick={() => window.location.reload()}>
        {t('Reload the page')}
      </Button>
    </Stack>
  );
}
