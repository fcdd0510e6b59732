import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildAuthUser } from '../../test/server';
import { installCanvas } from '../../test/canvas';
import { queryClient } from '../../lib/query-client';
import {
  FakeEventSource,
  fleet,
  referenceDevices,
  renderDashboard,
  serveDashboard,
} from '../../features/dashboard/test/fixtures';
import { DevicesPage } from '../../features/devices/routes/devices-page';

beforeAll(() => {
  installCanvas();
  vi.stubGlobal('EventSource', FakeEventSource);
});
afterAll(() => vi.unstubAllGlobals());
afterEach(() => queryClient.clear());

const counterLinks = () => within(screen.getByRole('list', { name: 'Счётчики' })).getAllByRole('link');
const counterText = () => counterLinks().map((link) => link.textContent);

describe('from the dashboard to the equipment', { timeout: 30_000 }, () => {
  it('follows a counter to the devices list filtered by it, and the filter can be removed', async () => {
    serveDashboard({ devices: fleet() });
    const { router } = await renderDashboard(
      '/account/dashboard',
      { devices: referenceDevices() },
      buildAuthUser(['dashboard', 'devices', 'addresses', 'device_event_template']),
      [{ path: 'devices', Component: DevicesPage }],
    );
    await waitFor(() => expect(counterText()[1]).toBe('Не в сети2'));
    await userEvent.click(screen.getByRole('link', { name: /Не в сети/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?counter=offline'));

    const names = () =>
      within(screen.getByRole('table', { name: 'Оборудование' }))
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell')[0]?.textContent);
    await waitFor(() => expect(names()).toEqual(['Печь 2', 'Фритюрница']));
    expect(screen.getByText('Счётчик: Не в сети')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Убрать фильтр «Не в сети»' }));
    await waitFor(() => expect(names()).toHaveLength(7));
    expect(router.state.location.search).toBe('');
  });
});
