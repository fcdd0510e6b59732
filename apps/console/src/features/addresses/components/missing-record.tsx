import { Anchor, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';

/** What a page shows for an id that does not exist (any more), with the way back. */
export function MissingRecord({
  message,
  back,
  backLabel,
}: {
  message: string;
  back: string;
  backLabel: string;
}) {
  return (
    <Stack gap="xs" role="status">
      <Text>{message}</Text>
      <Anchor component={Link} to={back} w="fit-content">
        {backLabel}
      </Anchor>
    </Stack>
  );
}
