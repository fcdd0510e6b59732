import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppProvider } from './provider';
import { buildAuthUser, server } from '../test/server';
import { buildAddress, buildRoom } from '../features/addresses/testing';

describe('addresses in the console’s router (docs/contract.md, "Screens and routes")', () => {
  it('opens the list, the add page, an address and a room, each with its title', async () => {
    localStorage.setItem('guest', 'isNotGuest');
    const arbat = buildAddress({ id: 5, name: 'Арбат' });
    const kitchen = buildRoom({ id: 50, address_id: 5, name: 'Горячий цех' });
    server.use(
      http.get('/api/users/auth', () => HttpResponse.json({ data: buildAuthUser(['addresses']) })),
      http.get('/api/addresses/', () => HttpResponse.json({ data: [arbat] })),
      http.get('/api/rooms/', () => HttpResponse.json({ data: [kitchen] })),
    );
    window.history.replaceState({}, '', '/account/addresses');
    const router = (await import('./router')).startRouter();
    render(
      <AppProvider>
        <RouterProvider router={router} />
      </AppProvider>,
    );
    const user = userEvent.setup({ delay: null });

    expect(await screen.findByRole('heading', { level: 1, name: 'Адреса' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Основное меню' });
    expect(within(nav).getByRole('link', { name: 'Адреса' })).toHaveAttribute('aria-current', 'page');

    await user.click(await screen.findByRole('link', { name: 'Добавить адрес' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Добавить адрес' })).toBeInTheDocument();
    expect(await screen.findByRole('group', { name: 'Время работы' })).toBeInTheDocument();

    await router.navigate('/account/addresses/5');
    expect(await screen.findByRole('heading', { level: 1, name: 'Адрес' })).toBeInTheDocument();
    await user.click(await screen.findByRole('link', { name: 'Горячий цех' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Помещение' })).toBeInTheDocument();

    await router.navigate('/account/addresses/room/add?address_id=5');
    expect(await screen.findByRole('heading', { level: 1, name: 'Добавить помещение' })).toBeInTheDocument();
    expect(await screen.findByRole('combobox', { name: 'Адрес' })).toHaveValue(`Арбат, ${arbat.city}`);

    await router.navigate('/account/addresses/room');
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/addresses'));
  });
});
