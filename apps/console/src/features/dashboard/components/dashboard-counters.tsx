import { DASHBOARD_COUNTERS, type DashboardCounter, type DashboardCounters } from '@kontrol/contracts';
import { SimpleGrid, Skeleton, Text } from '@mantine/core';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatNumber } from '../../../lib/format';
import { useDashboardLabels } from '../../../lib/device-stat/dashboard-labels';
import { counterListPath } from '../../../lib/device-stat/dashboard-model';
import classes from './dashboard.module.css';

/** Counters that are good news when high; every other one is a problem when above zero. */
const GOOD: readonly DashboardCounter[] = ['online'];

/**
 * The six counters of docs/contract.md, "Product and areas" in its order, each a link to the devices list filtered by it (and by
 * the device type the dashboard shows). Memoised: a live update that changes no count renders
 * nothing here.
 */
export const DashboardCounterCards = memo(function DashboardCounterCards({
  counters,
  type,
}: {
  counters: DashboardCounters | undefined;
  type: number | null;
}) {
  const { t } = useTranslation();
  const labels = useDashboardLabels();
  return (
    <SimpleGrid
      cols={{ base: 2, sm: 3, lg: 6 }}
      spacing="sm"
      component="ul"
      className={classes.counters}
      aria-label={t('Counters')}
      aria-busy={counters === undefined}
    >
      {DASHBOARD_COUNTERS.map((counter) => (
        <li key={counter}>
          {counters ? (
            <Link
              to={counterListPath(counter, type)}
              className={classes.counter}
              data-dashboard-counter={counter}
              data-tone={GOOD.includes(counter) ? 'good' : counters[counter] > 0 ? 'bad' : undefined}
              title={t('Show these devices')}
            >
              <Text size="sm" c="dimmed" component="span" display="block">
                {labels.counter[counter]}
              </Text>
              <span className={classes.counterValue}>{formatNumber(counters[counter])}</span>
            </Link>
          ) : (
            <Skeleton height={76} radius="md" aria-hidden="true" />
          )}
        </li>
      ))}
    </SimpleGrid>
  );
});
