import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axios from 'axios';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import '../lib/i18n';
import { server } from '../test/server';
import { ConfirmDeleteButton } from './confirm-delete';

const show = (onConfirm: () => Promise<unknown>) =>
  render(
    <MantineProvider>
      <ConfirmDeleteButton title="Удалить печь «Печь 1»?" onConfirm={onConfirm} />
    </MantineProvider>,
  );

describe('ConfirmDeleteButton', () => {
  it('deletes only after confirmation; cancelling deletes nothing', async () => {
    const onConfirm = vi.fn(() => Promise.resolve());
    show(onConfirm);
    await userEvent.click(screen.getByRole('button', { name: 'Удалить' }));
    const dialog = await screen.findByRole('dialog', { name: 'Удалить печь «Печь 1»?' });
    expect(dialog).toHaveTextContent('Это действие нельзя отменить.');
    // Cancel has the focus: Enter does not delete by accident.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Отмена' })).toHaveFocus());
    await userEvent.click(screen.getByRole('button', { name: 'Отмена' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(onConfirm).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'Удалить' }));
    const again = await screen.findByRole('dialog');
    await userEvent.click(within(again).getByRole('button', { name: 'Удалить' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('stays open and shows the server’s message when the deletion fails', async () => {
    server.use(
      http.delete('/api/ovens/1', () =>
        HttpResponse.json({ message: 'Печь используется.' }, { status: 409 }),
      ),
    );
    show(() => axios.delete('/api/ovens/1'));
    await userEvent.click(screen.getByRole('button', { name: 'Удалить' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Удалить' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Печь используется.');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });
});
