import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../../lib/query-client';
import { buildAuthUser } from '../../../test/server';
import { billingKeys } from '../api/keys';
import { buildBalance, renderInAccount, serveBilling } from '../test/fixtures';
import { NegativeBalanceBanner } from './negative-balance-banner';

afterEach(() => queryClient.clear());

const HOLDER = buildAuthUser(['dashboard', 'billing']);
const TEXT = 'Баланс отрицательный: пополните его, чтобы сервис работал без перерывов.';

describe('the account frame’s negative balance banner', { timeout: 30_000 }, () => {
  it('warns a billing holder while the balance is below zero, with the way to the billing page', async () => {
    const asked = serveBilling({ balance: buildBalance({ balance: -1, days_left: 0 }) });
    await renderInAccount('/account/dashboard', HOLDER, <NegativeBalanceBanner user={HOLDER} />, 'dashboard');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(TEXT);
    expect(screen.getByRole('link', { name: 'Перейти в биллинг' })).toHaveAttribute(
      'href',
      '/account/billing',
    );
    expect(asked.balance).toBe(1);
  });

  it('says nothing while the balance is zero or more', async () => {
    const asked = serveBilling({ balance: buildBalance({ balance: 0, days_left: 0 }) });
    await renderInAccount('/account/dashboard', HOLDER, <NegativeBalanceBanner user={HOLDER} />, 'dashboard');
    await waitFor(() => expect(asked.balance).toBe(1));
    expect(screen.queryByText(TEXT)).toBeNull();
  });

  it('never asks for the balance without the billing module', async () => {
    const user = buildAuthUser(['dashboard']);
    const asked = serveBilling({ balance: buildBalance({ balance: -100_00 }) });
    await renderInAccount('/account/dashboard', user, <NegativeBalanceBanner user={user} />, 'dashboard');
    const balance = () => queryClient.getQueryCache().find({ queryKey: billingKeys.balance() });
    // Once the banner watches the balance, a request it meant to make would be under way already.
    await waitFor(() => expect(balance()?.getObserversCount()).toBe(1));
    expect(balance()?.state).toMatchObject({ status: 'pending', fetchStatus: 'idle' });
    expect(asked.balance).toBe(0);
    expect(screen.queryByText(TEXT)).toBeNull();
  });
});
