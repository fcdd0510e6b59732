import type { IntegrationStatus } from '@kontrol/contracts';
import { Badge } from '@mantine/core';
import { STATUS_COLOURS, useIntegrationLabels } from '../integration-labels';

/** An integration's status as a coloured badge with its word. */
export function IntegrationStatusBadge({ status }: { status: IntegrationStatus }) {
  const labels = useIntegrationLabels();
  return (
    <Badge color={STATUS_COLOURS[status]} variant="light" tt="none">
      {labels.status[status]}
    </Badge>
  );
}
