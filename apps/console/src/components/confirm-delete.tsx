import { Button, Group, Modal, Stack, Text, type ButtonProps } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isAbortError, toApiFailure, type ApiFailure } from '../lib/api-errors';
import { FormFailure } from './form-failure';

export interface ConfirmDeleteModalProps {
  opened: boolean;
  onClose: () => void;
  /** The dialog's title, naming what goes, e.g. `t('Delete the device «{{name}}»?', {name})`. */
  title: string;
  /** Extra words under the title; default "This cannot be undone." */
  message?: ReactNode;
  /** Deletes; the dialog closes when it resolves and shows the failure (docs/contract.md, "Error catalogue") when it throws. */
  onConfirm: () => Promise<unknown>;
  /** The confirming button's text; default "Delete". */
  confirmLabel?: string;
}

/**
 * A dialog asking to confirm a deletion (Mantine `Modal`: focus trapped, Escape cancels, the title
 * names the dialog). Cancel takes the initial focus, so Enter never deletes by accident.
 */
export function ConfirmDeleteModal({
  opened,
  onClose,
  title,
  message,
  onConfirm,
  confirmLabel,
}: ConfirmDeleteModalProps) {
  const { t } = useTranslation();
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<ApiFailure | null>(null);
  const close = () => {
    if (pending) return;
    setFailure(null);
    onClose();
  };
  const confirm = async () => {
    setPending(true);
    setFailure(null);
    try {
      await onConfirm();
      setPending(false);
      onClose();
    } catch (error) {
      setPending(false);
      if (!isAbortError(error)) setFailure(toApiFailure(error));
    }
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={title}
      centered
      closeButtonProps={{ 'aria-label': t('Close') }}
    >
      <Stack gap="md">
        <FormFailure failure={failure} fields={[]} />
        <Text size="sm">{message ?? t('This cannot be undone.')}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={pending} data-autofocus>
            {t('Cancel')}
          </Button>
          <Button color="red" onClick={() => void confirm()} loading={pending}>
            {confirmLabel ?? t('Delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export interface ConfirmDeleteButtonProps extends Omit<ConfirmDeleteModalProps, 'opened' | 'onClose'> {
  /** The button's text; default "Delete". */
  label?: string;
  /** Props for the opening button (size, variant, `aria-label` when the text alone is ambiguous). */
  buttonProps?: ButtonProps & { 'aria-label'?: string };
}

/** A red "Delete" button that opens {@link ConfirmDeleteModal}; deletes only after confirmation. */
export function ConfirmDeleteButton({ label, buttonProps, ...modal }: ConfirmDeleteButtonProps) {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <Button color="red" variant="outline" onClick={open} {...buttonProps}>
        {label ?? t('Delete')}
      </Button>
      <ConfirmDeleteModal opened={opened} onClose={close} {...modal} />
    </>
  );
}
