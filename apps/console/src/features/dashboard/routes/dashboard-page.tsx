import { Text } from '@mantine/core';
import { useCurrentUser } from '../../auth/use-current-user';

/**
 * `/account/dashboard`: the frame of the dashboard. Its counters, graph and lists come with the
 * dashboard issue; until then it says whose dashboard this is and nothing more.
 */
export function DashboardPage() {
  const user = useCurrentUser();
  return <Text c="dimmed">{user.organisation.name}</Text>;
}
