import type { ComplaintPriority, ComplaintStatus } from '@kontrol/contracts';
import { Badge } from '@mantine/core';
import { PRIORITY_COLOURS, STATUS_COLOURS, useComplaintLabels } from '../complaint-labels';

export function StatusBadge({ status }: { status: ComplaintStatus }) {
  const labels = useComplaintLabels();
  return (
    <Badge color={STATUS_COLOURS[status]} variant="light" radius="sm">
      {labels.status[status]}
    </Badge>
  );
}

export function PriorityBadge({ priority }: { priority: ComplaintPriority }) {
  const labels = useComplaintLabels();
  return (
    <Badge
      color={PRIORITY_COLOURS[priority]}
      variant={priority === 'urgent' ? 'filled' : 'outline'}
      radius="sm"
    >
      {labels.priority[priority]}
    </Badge>
  );
}
