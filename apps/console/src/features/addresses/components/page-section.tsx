import { Paper, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A titled part of a page (`h2`), named for assistive technology by its title. */
export function PageSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={id}>
      <Title order={2} size="h4" id={id} mb="md">
        {title}
      </Title>
      {children}
    </Paper>
  );
}
