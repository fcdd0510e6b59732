import type { AuthUser } from '@kontrol/contracts';
import { Alert, Anchor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { BANNER_BALANCE_STALE_MS, useBalance } from '../api/get-balance';

/** Whether `user` holds the `billing` module (and so may read the balance). */
export function holdsBilling(user: AuthUser): boolean {
  return user.acl_modules.some((module) => module.slug === 'billing');
}

/**
 * The account frame's warning while the organisation's balance is below zero, with the way to the
 * billing page. Only holders of the `billing` module ask for the balance (once, then a copy a few
 * minutes old will do); the page never waits for it. Light on purpose: it is in the frame's chunk.
 */
export function NegativeBalanceBanner({ user }: { user: AuthUser }) {
  const { t } = useTranslation();
  const { data } = useBalance({ enabled: holdsBilling(user), staleTime: BANNER_BALANCE_STALE_MS });
  if (!data || data.balance >= 0) return null;
  return (
    <Alert color="red" variant="light" role="alert" mb="md">
      {t('The balance is negative: top it up so the service keeps working without interruptions.')}{' '}
      <Anchor component={Link} to={paths.account.billing()} c="inherit" fw={700} td="underline">
        {t('Go to billing')}
      </Anchor>
    </Alert>
  );
}
