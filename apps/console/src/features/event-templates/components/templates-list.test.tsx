import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../../lib/query-client';
import { server } from '../../../test/server';
import { referenceKey } from '../../../lib/reference-data/resources';
import { buildDeviceEventTemplate, buildDeviceType, renderTemplates } from '../test/fixtures';

afterEach(() => queryClient.clear());

const types = [
  buildDeviceType({ id: 1, name: 'Пароконвектомат' }),
  buildDeviceType({ id: 2, slug: 'fryer', name: 'Фритюрница' }),
];

describe('the current templates list', { timeout: 30_000 }, () => {
  it('lists the templates with their type, devices and rules, and searches them by name', async () => {
    const templates = [
      buildDeviceEventTemplate({ id: 1, name: 'Печи 10 GN', device_ids: [1, 2, 3] }),
      buildDeviceEventTemplate({
        id: 2,
        name: 'Фритюр',
        description: 'Масло 180 °C',
        device_type_id: 2,
        rules: [],
        device_ids: [],
      }),
    ];
    await renderTemplates('/account/device_event_templates', { templates, types });

    const table = await screen.findByRole('table', { name: 'Шаблоны тока' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toHaveTextContent('Печи 10 GN');
    expect(rows[1]).toHaveTextContent('Пароконвектомат');
    expect(within(rows[1] as HTMLElement).getAllByRole('cell')[2]).toHaveTextContent('3');
    expect(within(rows[1] as HTMLElement).getAllByRole('cell')[3]).toHaveTextContent('1');
    expect(within(rows[1] as HTMLElement).getByRole('link', { name: 'Печи 10 GN' })).toHaveAttribute(
      'href',
      '/account/device_event_templates/1',
    );
    expect(rows[2]).toHaveTextContent('Фритюрница');
    expect(screen.getByRole('link', { name: 'Добавить шаблон' })).toHaveAttribute(
      'href',
      '/account/device_event_templates/add',
    );

    // The description is searched too.
    await userEvent.type(screen.getByRole('searchbox', { name: 'Поиск шаблонов' }), 'масло');
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('Фритюр');
    expect(screen.getByText('Показано 1 из 2')).toBeInTheDocument();
  });

  it('says "No records found" when there is no template', async () => {
    await renderTemplates('/account/device_event_templates', { templates: [], types });
    expect(await screen.findByText('Записей не найдено')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('deletes a template after a confirmation naming the devices that lose their norm, then reloads', async () => {
    const template = buildDeviceEventTemplate({ id: 4, name: 'Печи 10 GN', device_ids: [1, 2] });
    let deleted = 0;
    let reloads = 0;
    server.use(
      http.delete('/api/devices/events/templates/4', () => {
        deleted += 1;
        return new HttpResponse(null, { status: 204 });
      }),
      http.get('/api/devices/events/templates/all', () => {
        reloads += 1;
        return HttpResponse.json({ data: [] });
      }),
    );
    await renderTemplates('/account/device_event_templates', { templates: [template], types });

    await userEvent.click(await screen.findByRole('button', { name: 'Удалить шаблон «Печи 10 GN»' }));
    const dialog = await screen.findByRole('dialog', { name: 'Удалить шаблон «Печи 10 GN»?' });
    expect(dialog).toHaveTextContent('Устройств с этим шаблоном: 2. Они останутся без нормы');
    // Cancel deletes nothing.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Отмена' }));
    expect(deleted).toBe(0);

    await userEvent.click(screen.getByRole('button', { name: 'Удалить шаблон «Печи 10 GN»' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Удалить' }));
    await waitFor(() => expect(deleted).toBe(1));
    // docs/contract.md, "States and transitions": the templates list is reloaded; the devices list (they lost their template_id) is
    // marked stale, so the account frame that watches it loads it again.
    await waitFor(() => expect(reloads).toBe(1));
    expect(queryClient.getQueryState(referenceKey('devices'))?.isInvalidated).toBe(true);
    expect(await screen.findByText('Записей не найдено')).toBeInTheDocument();
  });
});
