import { Pagination } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The pages of a server-paged billing list; nothing when there is one page. */
export function ListPagination({
  page,
  lastPage,
  onChange,
  label,
}: {
  page: number;
  lastPage: number;
  onChange: (page: number) => void;
  /** What the pages are of, for assistive technology, e.g. "Documents pages". */
  label: string;
}) {
  const { t } = useTranslation();
  if (lastPage <= 1) return null;
  return (
    <nav aria-label={label}>
      <Pagination
        total={lastPage}
        value={Math.min(page, lastPage)}
        onChange={onChange}
        getControlProps={(control) => ({
          'aria-label': control === 'previous' ? t('Previous page') : t('Next page'),
        })}
        getItemProps={(item) => ({
          'aria-label': t('Page {{page}}', { page: item }),
          'aria-current': item === page ? 'page' : undefined,
        })}
      />
    </nav>
  );
}
