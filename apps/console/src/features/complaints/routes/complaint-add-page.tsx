import { Anchor, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../../config/paths';
import { useCreateComplaint } from '../api/create-complaint';
import { useAssignees } from '../use-assignees';
import { ComplaintForm } from '../components/complaint-form';
import { parseId } from '../../../lib/parse-id';
import { useComplaintReferences } from '../use-complaint-references';

/** `/account/requests/add` (`?device=` preselects a device); then the complaint's page opens. */
export function ComplaintAddPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const references = useComplaintReferences();
  const assignees = useAssignees();
  const create = useCreateComplaint();

  return (
    <Stack gap="md">
      <Anchor component={Link} to={paths.account.requests.list} size="sm">
        ← {t('All complaints')}
      </Anchor>
      <ComplaintForm
        references={references}
        assignees={assignees}
        presetDevice={parseId(searchParams.get('device'))}
        submit={(body) => create.mutateAsync(body)}
        onSuccess={(complaint) =>
          void navigate(paths.account.requests.detail(complaint.id), { replace: true })
        }
      />
    </Stack>
  );
}
