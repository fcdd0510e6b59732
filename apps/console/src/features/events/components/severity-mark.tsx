import type { EventSeverity } from '@kontrol/contracts';
import { Box, Group } from '@mantine/core';
import { SEVERITY_COLOURS, useEventLabels } from '../event-labels';

/** A severity as a coloured dot and its word: the word carries the meaning and the contrast. */
export function SeverityMark({ severity }: { severity: EventSeverity }) {
  const labels = useEventLabels();
  return (
    <Group gap={6} wrap="nowrap" component="span">
      <Box
        component="span"
        aria-hidden="true"
        w={10}
        h={10}
        style={{ borderRadius: '50%', background: SEVERITY_COLOURS[severity], flex: 'none' }}
      />
      <span>{labels.severity[severity]}</span>
    </Group>
  );
}
