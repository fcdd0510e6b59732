import { Select, type SelectProps } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** `UTC+03:00` (today's offset, so summer time shows as it is now), or null if the runtime cannot say. */
function offsetOf(zone: string, at: Date): string | null {
  try {
    const part = new Intl.DateTimeFormat('en', { timeZone: zone, timeZoneName: 'longOffset' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value;
    if (!part) return null;
    return part === 'GMT' ? 'UTC+00:00' : part.replace('GMT', 'UTC');
  } catch {
    return null;
  }
}

type Option = { value: string; label: string };
let known: Option[] | null = null;

function option(zone: string, at: Date): Option {
  const offset = offsetOf(zone, at);
  return { value: zone, label: offset ? `${zone} (${offset})` : zone };
}

/**
 * The runtime's zones with their offsets (a few hundred formatters, noticeable on a slow phone), worked
 * out once, when a list is first opened; until then only the chosen zone is needed.
 */
function allOptions(): Option[] {
  const now = new Date();
  known ??= Intl.supportedValuesOf('timeZone').map((zone) => option(zone, now));
  return known;
}

/** A searchable list of the IANA time zones the browser knows, with their current UTC offsets. */
export function TimeZoneSelect(props: Omit<SelectProps, 'data'> & { value?: string | null }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(known !== null);
  const current = props.value ?? null;
  const data = useMemo(() => {
    if (!opened) return current ? [option(current, new Date())] : [];
    const all = allOptions();
    // A zone saved earlier (or `UTC`, which some runtimes leave out) stays choosable.
    return !current || all.some((o) => o.value === current) ? all : [option(current, new Date()), ...all];
  }, [opened, current]);
  return (
    <Select
      label={t('Time zone')}
      searchable
      allowDeselect={false}
      nothingFoundMessage={t('Nothing found')}
      maxDropdownHeight={280}
      // Mantine keeps a closed list in the DOM by default: some 400 hidden options on every form.
      comboboxProps={{ keepMounted: false }}
      onDropdownOpen={() => setOpened(true)}
      {...props}
      data={data}
    />
  );
}
