import {
  BANK_NAME_MAX_LENGTH,
  DOCUMENTS_EMAIL_MAX_LENGTH,
  LEGAL_ADDRESS_MAX_LENGTH,
  LEGAL_NAME_MAX_LENGTH,
  SIGNATORY_NAME_MAX_LENGTH,
  issuesToFieldErrors,
  organisationDetailsSchema,
  type OrganisationDetailsBody,
} from '@kontrol/contracts';
import {
  Button,
  Fieldset,
  Group,
  SimpleGrid,
  Stack,
  TextInput,
  Textarea,
  type TextInputProps,
} from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFailure } from '../../../components/form-failure';
import { getLocale } from '../../../lib/i18n';
import { useApiForm } from '../../../lib/use-api-form';
import type { OrganisationRecord } from '../api/get-organisation';

/** The form's fields, named as `organisationDetailsSchema` names them (the server's 422 paths). */
export interface OrganisationValues extends Record<string, unknown> {
  legal_name: string;
  inn: string;
  kpp: string;
  ogrn: string;
  legal_address: string;
  postal_address: string;
  bank_name: string;
  bik: string;
  correspondent_account: string;
  settlement_account: string;
  director: string;
  accountant: string;
  documents_email: string;
}

export const ORGANISATION_FIELDS = [
  'legal_name',
  'inn',
  'kpp',
  'ogrn',
  'legal_address',
  'postal_address',
  'bank_name',
  'bik',
  'correspondent_account',
  'settlement_account',
  'director',
  'accountant',
  'documents_email',
] as const satisfies readonly (keyof OrganisationValues)[];

function valuesOf(details: OrganisationRecord | null): OrganisationValues {
  return {
    legal_name: details?.legal_name ?? '',
    inn: details?.inn ?? '',
    kpp: details?.kpp ?? '',
    ogrn: details?.ogrn ?? '',
    legal_address: details?.legal_address ?? '',
    postal_address: details?.postal_address ?? '',
    bank_name: details?.bank_name ?? '',
    bik: details?.bik ?? '',
    correspondent_account: details?.correspondent_account ?? '',
    settlement_account: details?.settlement_account ?? '',
    director: details?.director ?? '',
    accountant: details?.accountant ?? '',
    documents_email: details?.documents_email ?? '',
  };
}

/** The body of `POST /api/users/update_organization`: texts trimmed, empty optional ones null. */
export function organisationBody(values: OrganisationValues): OrganisationDetailsBody {
  const optional = (text: string) => (text.trim() ? text.trim() : null);
  return {
    legal_name: values.legal_name.trim(),
    inn: values.inn.trim(),
    kpp: optional(values.kpp),
    ogrn: values.ogrn.trim(),
    legal_address: values.legal_address.trim(),
    postal_address: optional(values.postal_address),
    bank_name: values.bank_name.trim(),
    bik: values.bik.trim(),
    correspondent_account: values.correspondent_account.trim(),
    settlement_account: values.settlement_account.trim(),
    director: values.director.trim(),
    accountant: optional(values.accountant),
    documents_email: values.documents_email.trim(),
  };
}

/**
 * The checks of the shared schema (`organisationDetailsSchema`: the INN, OGRN, BIK and accounts by
 * their control digits) before anything is sent, with the server's own texts in the interface
 * language (`issuesToFieldErrors`): the same messages a 422 would bring.
 */
export function checkOrganisation(values: OrganisationValues): Record<string, string[]> {
  const parsed = organisationDetailsSchema.safeParse(organisationBody(values));
  return parsed.success ? {} : issuesToFieldErrors(parsed.error.issues, getLocale());
}

/** A field of digits (INN, BIK, accounts): a numeric keyboard, no spelling, a fixed length. */
function DigitsInput(props: TextInputProps) {
  return <TextInput inputMode="numeric" autoComplete="off" spellCheck={false} {...props} />;
}

/**
 * The organisation's requisites for invoices and acts: the company (legal name, INN, KPP, OGRN or
 * OGRNIP, addresses), its bank (name, BIK, correspondent and settlement accounts) and who signs
 * (director, chief accountant) with the e-mail documents go to. Checked here by the shared schema,
 * then by the server, whose 422 messages show under the fields. `readOnly` for non-admins.
 */
export function OrganisationForm<Result>({
  details,
  readOnly,
  submit,
  onSuccess,
}: {
  details: OrganisationRecord | null;
  readOnly: boolean;
  submit: (body: OrganisationDetailsBody) => Promise<Result>;
  onSuccess: (result: Result) => void;
}) {
  const { t } = useTranslation();
  const { form, onSubmit, submitting, failure } = useApiForm<OrganisationValues, Result>({
    initialValues: valuesOf(details),
    validate: checkOrganisation,
    submit: (values) => submit(organisationBody(values)),
    onSuccess: (result) => onSuccess(result),
  });

  // After a refused submit, the first field in error takes the focus.
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (failure?.kind !== 'validation') return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [failure]);

  const shownFields =
    failure?.kind === 'validation'
      ? Object.keys(failure.errors).filter((field) =>
          (ORGANISATION_FIELDS as readonly string[]).includes(field),
        )
      : [];
  const field = (name: (typeof ORGANISATION_FIELDS)[number]) => ({
    name,
    readOnly,
    ...form.getInputProps(name),
  });

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate>
      <Stack gap="lg" maw={880}>
        <FormFailure failure={failure} fields={shownFields} />
        <Fieldset legend={t('Organisation')}>
          <Stack gap="md">
            <TextInput
              label={t('Legal name')}
              description={t('As in the register, e.g. ООО «Ромашка» or ИП Иванов Иван Иванович.')}
              required
              maxLength={LEGAL_NAME_MAX_LENGTH}
              autoComplete="organization"
              {...field('legal_name')}
            />
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
              <DigitsInput
                label={t('INN')}
                description={t('10 digits, or 12 for an entrepreneur.')}
                required
                maxLength={12}
                {...field('inn')}
              />
              <TextInput
                label={t('KPP')}
                description={t('Companies only.')}
                maxLength={9}
                autoComplete="off"
                spellCheck={false}
                {...field('kpp')}
              />
              <DigitsInput
                label={t('OGRN / OGRNIP')}
                description={t('13 digits, or 15 for an entrepreneur.')}
                required
                maxLength={15}
                {...field('ogrn')}
              />
            </SimpleGrid>
            <Textarea
              label={t('Legal address')}
              required
              autosize
              minRows={2}
              maxLength={LEGAL_ADDRESS_MAX_LENGTH}
              {...field('legal_address')}
            />
            <Textarea
              label={t('Postal address')}
              description={t('If it differs from the legal address.')}
              autosize
              minRows={2}
              maxLength={LEGAL_ADDRESS_MAX_LENGTH}
              {...field('postal_address')}
            />
          </Stack>
        </Fieldset>
        <Fieldset legend={t('Bank')}>
          <Stack gap="md">
            <TextInput
              label={t('Bank name')}
              required
              maxLength={BANK_NAME_MAX_LENGTH}
              {...field('bank_name')}
            />
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
              <DigitsInput
                label={t('BIK')}
                description={t('9 digits.')}
                required
                maxLength={9}
                {...field('bik')}
              />
              <DigitsInput
                label={t('Correspondent account')}
                description={t('20 digits.')}
                required
                maxLength={20}
                {...field('correspondent_account')}
              />
              <DigitsInput
                label={t('Settlement account')}
                description={t('20 digits.')}
                required
                maxLength={20}
                {...field('settlement_account')}
              />
            </SimpleGrid>
          </Stack>
        </Fieldset>
        <Fieldset legend={t('Signatures and documents')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              label={t('Director')}
              description={t('Full name of who signs for the organisation.')}
              required
              maxLength={SIGNATORY_NAME_MAX_LENGTH}
              autoComplete="off"
              {...field('director')}
            />
            <TextInput
              label={t('Chief accountant')}
              maxLength={SIGNATORY_NAME_MAX_LENGTH}
              autoComplete="off"
              {...field('accountant')}
            />
            <TextInput
              label={t('E-mail for documents')}
              type="email"
              inputMode="email"
              required
              maxLength={DOCUMENTS_EMAIL_MAX_LENGTH}
              autoComplete="email"
              spellCheck={false}
              {...field('documents_email')}
            />
          </SimpleGrid>
        </Fieldset>
        {!readOnly && (
          <Group>
            <Button type="submit" loading={submitting}>
              {t('Save the details')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
