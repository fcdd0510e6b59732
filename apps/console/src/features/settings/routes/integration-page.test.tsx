import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../../lib/query-client';
import { server } from '../../../test/server';
import { REGULAR, buildIntegration, renderSettings, serveIntegrations } from '../test/fixtures';

afterEach(() => queryClient.clear());

const phone = buildIntegration({
  id: 5,
  name: 'Телефон Анны',
  bound_at: '2026-11-02T08:15:00.000Z',
  last_delivery_at: '2026-11-20T10:30:00.000Z',
  last_error: 'Telegram не ответил: 502 Bad Gateway',
});

function serveIntegration() {
  server.use(http.get('/api/integrations_show/5', () => HttpResponse.json({ data: phone })));
}

describe('an integration’s page', { timeout: 30_000 }, () => {
  it('shows its status, recipient, chat, dates and last error', async () => {
    serveIntegration();
    await renderSettings('/account/settings/5');

    expect(await screen.findByRole('heading', { name: 'Телефон Анны' })).toBeInTheDocument();
    expect(screen.getByText('Активна')).toBeInTheDocument();
    const fact = (term: string) => screen.getByText(term, { selector: 'dt' }).nextElementSibling;
    expect(fact('Вид')).toHaveTextContent('Telegram');
    expect(fact('Для кого')).toHaveTextContent('Анна Повар');
    expect(fact('Чат')).toHaveTextContent('Анна Повар (@anna_cook)');
    expect(fact('Подключена')).toHaveTextContent('02.11.2026');
    expect(fact('Последняя доставка')).toHaveTextContent('20.11.2026');
    expect(screen.getByText('Telegram не ответил: 502 Bad Gateway')).toBeInTheDocument();
  });

  it('deletes it only after confirmation, then shows the list', async () => {
    const user = userEvent.setup();
    serveIntegration();
    let deleted = 0;
    const asked = serveIntegrations([]);
    server.use(
      http.delete('/api/integrations/5', () => {
        deleted += 1;
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { router } = await renderSettings('/account/settings/5');

    await user.click(await screen.findByRole('button', { name: 'Удалить интеграцию' }));
    const dialog = await screen.findByRole('dialog', { name: 'Удалить интеграцию «Телефон Анны»?' });
    expect(dialog).toHaveTextContent('Уведомления перестанут приходить в этот чат.');
    await user.click(within(dialog).getByRole('button', { name: 'Отмена' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(deleted).toBe(0);

    await user.click(screen.getByRole('button', { name: 'Удалить интеграцию' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: /Удалить интеграцию/ })).getByRole('button', {
        name: 'Удалить',
      }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/settings'));
    expect(deleted).toBe(1);
    await waitFor(() => expect(asked.list).toBeGreaterThan(0));
  });

  it('shows the server’s refusal in the confirmation', async () => {
    const user = userEvent.setup();
    serveIntegration();
    server.use(
      http.delete('/api/integrations/5', () =>
        HttpResponse.json({ message: 'Недостаточно прав' }, { status: 403 }),
      ),
    );
    const { router } = await renderSettings('/account/settings/5');

    await user.click(await screen.findByRole('button', { name: 'Удалить интеграцию' }));
    const dialog = await screen.findByRole('dialog', { name: /Удалить интеграцию/ });
    await user.click(within(dialog).getByRole('button', { name: 'Удалить' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Недостаточно прав');
    expect(router.state.location.pathname).toBe('/account/settings/5');
  });

  it('offers no deletion to a user who is not an admin', async () => {
    serveIntegration();
    await renderSettings('/account/settings/5', REGULAR);

    expect(await screen.findByRole('heading', { name: 'Телефон Анны' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Удалить интеграцию' })).toBeNull();
  });

  it('shows another organisation’s integration as not found, with nothing to delete', async () => {
    // The server answers 404 for an id of another organisation.
    server.use(
      http.get('/api/integrations_show/99', () =>
        HttpResponse.json({ message: 'Не найдено' }, { status: 404 }),
      ),
    );
    await renderSettings('/account/settings/99');

    expect(await screen.findByText('Интеграция не найдена')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Удалить интеграцию' })).toBeNull();
  });
});
