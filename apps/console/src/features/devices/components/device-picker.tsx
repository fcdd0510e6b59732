import { Button, Checkbox, Fieldset, Group, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useDeferredValue, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { observeElementRectOrFallback } from '../../../components/data-table';
import { NoRecords } from '../../../components/no-records';
import { normaliseSearch, searchKeyOf, type DeviceListItem } from '../device-list';

const ROW_HEIGHT = 36;

/**
 * Chooses devices for a group among all of the organisation's (10 000 and more): a search box over
 * name, serial number and controller id, and a checklist of the matches that renders only the rows
 * in view. "Only chosen" shows the current members; "Choose all shown" takes every match.
 */
export function DevicePicker({
  items,
  value,
  onChange,
  error,
}: {
  /** Every device, in the order to list them. */
  items: readonly DeviceListItem[];
  value: readonly number[];
  onChange: (ids: number[]) => void;
  error?: string;
}) {
  const { t } = useTranslation();
  const countId = useId();
  const [search, setSearch] = useState('');
  const [onlyChosen, setOnlyChosen] = useState(false);
  const deferredSearch = useDeferredValue(search);
  const chosen = useMemo(() => new Set(value), [value]);
  // The choice matters to the filter only while "only chosen" is on: ticking a box must not refilter.
  const chosenFilter = onlyChosen ? chosen : null;
  const shown = useMemo(() => {
    const needle = normaliseSearch(deferredSearch);
    return items.filter(
      (item) =>
        (chosenFilter === null || chosenFilter.has(item.device.id)) &&
        (!needle || searchKeyOf(item).includes(needle)),
    );
  }, [items, deferredSearch, chosenFilter]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (index) => shown[index]?.device.id ?? index,
    overscan: 10,
    observeElementRect: observeElementRectOrFallback,
  });

  const toggle = (id: number, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(id);
    else next.delete(id);
    onChange([...next]);
  };
  const chooseAllShown = () => {
    const next = new Set(chosen);
    for (const item of shown) next.add(item.device.id);
    onChange([...next]);
  };

  return (
    <Fieldset legend={t('Devices')} aria-describedby={countId}>
      <Stack gap="sm">
        <Text size="sm" id={countId} role="status" aria-live="polite">
          {t('{{count}} chosen', { count: value.length })}
        </Text>
        {error && (
          <Text size="sm" c="red" role="alert">
            {error}
          </Text>
        )}
        <Group align="end" gap="sm">
          <TextInput
            label={t('Find devices')}
            placeholder={t('Name, serial number or controller ID')}
            type="search"
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
            style={{ flex: 1, minWidth: 200 }}
          />
          <Switch
            label={t('Only chosen')}
            checked={onlyChosen}
            onChange={(event) => setOnlyChosen(event.currentTarget.checked)}
          />
        </Group>
        <Group gap="xs">
          <Button variant="default" size="compact-sm" onClick={chooseAllShown} disabled={shown.length === 0}>
            {t('Choose all shown ({{count}})', { count: shown.length })}
          </Button>
          <Button
            variant="default"
            size="compact-sm"
            onClick={() => onChange([])}
            disabled={value.length === 0}
          >
            {t('Clear the choice')}
          </Button>
        </Group>
        {shown.length === 0 ? (
          <NoRecords />
        ) : (
          <div
            ref={scrollRef}
            // Focusable so the list scrolls from the keyboard; the boxes inside are tab stops too.
            tabIndex={0}
            role="group"
            aria-label={t('Devices found')}
            style={{ height: Math.min(320, shown.length * ROW_HEIGHT + 2), overflow: 'auto' }}
          >
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {virtualizer.getVirtualItems().map((row) => {
                const item = shown[row.index];
                if (!item) return null;
                return (
                  <div
                    key={row.key}
                    style={{
                      position: 'absolute',
                      insetInline: 0,
                      height: ROW_HEIGHT,
                      transform: `translateY(${row.start}px)`,
                      display: 'flex',
                      alignItems: 'center',
                    }}
                  >
                    <Checkbox
                      checked={chosen.has(item.device.id)}
                      onChange={(event) => toggle(item.device.id, event.currentTarget.checked)}
                      label={
                        <>
                          {item.device.name}
                          {item.place && (
                            <Text span c="dimmed" size="sm">
                              {' '}
                              · {item.place}
                            </Text>
                          )}
                        </>
                      }
                    />
                  </div>
                );
              })}
            </div>
          </div>
        )}
      </Stack>
    </Fieldset>
  );
}
