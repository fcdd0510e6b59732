import { Alert, Box, Button, Stack } from '@mantine/core';
import axios from 'axios';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { toApiFailure } from '../../lib/api-errors';
import { isChunkLoadError } from '../../lib/lazy-route';

/**
 * What a page that failed to load shows: a chunk that did not arrive (docs/contract.md, "Error catalogue") offers a reload,
 * a server that did not answer shows the connection error, anything else a plain apology.
 */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  console.error(error);
  const message = isChunkLoadError(error)
    ? t('A part of the application could not be loaded. Reload the page to continue.')
    : axios.isAxiosError(error) && toApiFailure(error).kind === 'connection'
      ? t('Connection error. Please try again later')
      : t('Something went wrong. Reload the page to continue.');
  return (
    <Box component="main" p="xl">
      <Stack maw={520} gap="md">
        <Alert color="red" role="alert">
          {message}
        </Alert>
        <Button w="fit-content" onClick={() => window.location.reload()}>
          {t('Reload the page')}
        </Button>
      </Stack>
    </Box>
  );
}
