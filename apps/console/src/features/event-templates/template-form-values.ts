import {
  DEVICE_STATES,
  NORM_STATES,
  type DeviceEventTemplate,
  type DeviceEventTemplateBody,
  type DeviceState,
  type EventRule,
  type EventRuleInput,
  type EventRuleKind,
  type EventSeverity,
  type NormState,
} from '@kontrol/contracts';

/** A number box's value: a number, or `''` while it is empty. */
export type NumberValue = number | string;

/** One rule as the form holds it: every kind's fields, of which the body takes the kind's own. */
export interface RuleFormValue {
  /** Stable identity for React while rules are added and removed (never sent). */
  uid: string;
  /** The rule's key within its template: kept for rules that were saved, given by the server to new ones. */
  key: string | null;
  kind: EventRuleKind;
  state: DeviceState;
  codes: string[];
  duration_minutes: NumberValue;
  severity: EventSeverity;
}

export interface BandFormValue extends Record<string, unknown> {
  min: NumberValue;
  max: NumberValue;
}

/**
 * The editor's fields, named as `deviceEventTemplateBodySchema` names them, so the server's 422
 * messages (`name`, `norms.heating.max`, `rules.0.duration_minutes`, `device_ids`) land under them.
 */
export interface TemplateFormValues extends Record<string, unknown> {
  name: string;
  description: string;
  device_type_id: string | null;
  /** "Only for this device". */
  device_id: string | null;
  norms: Record<NormState, BandFormValue>;
  rules: RuleFormValue[];
  device_ids: string[];
}

/** Rule kinds that watch one state, and the states each may watch. */
export function statesOfKind(kind: EventRuleKind): readonly DeviceState[] {
  if (kind === 'current_above' || kind === 'current_below') return NORM_STATES;
  if (kind === 'state_too_long') return DEVICE_STATES;
  return [];
}

let uidCounter = 0;
const nextUid = () => `rule-${(uidCounter += 1)}`;

/** A new rule: the current above the heating band for five minutes, a warning. */
export function newRule(): RuleFormValue {
  return {
    uid: nextUid(),
    key: null,
    kind: 'current_above',
    state: 'heating',
    codes: [],
    duration_minutes: 5,
    severity: 'warning',
  };
}

function ruleFormValue(rule: EventRule): RuleFormValue {
  return {
    uid: nextUid(),
    key: rule.key,
    kind: rule.kind,
    state: 'state' in rule ? rule.state : 'heating',
    codes: rule.kind === 'error_code' ? [...rule.codes] : [],
    duration_minutes: rule.duration_minutes,
    severity: rule.severity,
  };
}

const bandValue = (band: { min: number; max: number } | null): BandFormValue => ({
  min: band?.min ?? '',
  max: band?.max ?? '',
});

/** The form's values of a template, or of a new one (for a device type when one is given). */
export function templateFormValues(
  template?: DeviceEventTemplate,
  preset: { deviceTypeId?: number } = {},
): TemplateFormValues {
  const typeId = template?.device_type_id ?? preset.deviceTypeId;
  return {
    name: template?.name ?? '',
    description: template?.description ?? '',
    device_type_id: typeId === undefined ? null : String(typeId),
    device_id: template?.device_id == null ? null : String(template.device_id),
    norms: {
      idle: bandValue(template?.norms.idle ?? null),
      heating: bandValue(template?.norms.heating ?? null),
      cooking: bandValue(template?.norms.cooking ?? null),
      washing: bandValue(template?.norms.washing ?? null),
    },
    rules: template ? template.rules.map(ruleFormValue) : [],
    device_ids: template ? template.device_ids.map(String) : [],
  };
}

const numberOrNull = (value: NumberValue): number | null => (typeof value === 'number' ? value : null);

/**
 * An empty band is null (the template says nothing about that state); a half-filled one is sent as
 * it is, and the server names the missing end (docs/contract.md, "Validation and errors shown": the server owns the rules). The body type
 * describes valid input, hence the cast.
 */
function bandBody(band: BandFormValue): { min: number; max: number } | null {
  const min = numberOrNull(band.min);
  const max = numberOrNull(band.max);
  if (min === null && max === null) return null;
  return { min, max } as { min: number; max: number };
}

/** A rule's body: its kind's own fields; an empty duration is left to the server's default. */
export function ruleBody(rule: RuleFormValue): EventRuleInput {
  const common = {
    ...(rule.key ? { key: rule.key } : {}),
    severity: rule.severity,
    ...(typeof rule.duration_minutes === 'number' ? { duration_minutes: rule.duration_minutes } : {}),
  };
  switch (rule.kind) {
    case 'current_above':
    case 'current_below':
      return { kind: rule.kind, state: rule.state as NormState, ...common };
    case 'state_too_long':
      return { kind: rule.kind, state: rule.state, ...common } as EventRuleInput;
    case 'error_code':
      return { kind: rule.kind, codes: rule.codes, ...common };
    case 'no_data':
    case 'door_open_while_heating':
      return { kind: rule.kind, ...common };
  }
}

/**
 * Ids from the selects; none is sent as null, which the server answers with "required" under the
 * field (docs/contract.md, "Validation and errors shown"). The body type wants a number: it describes valid input.
 */
const idOrNull = (value: string | null) => (value ? Number(value) : (null as unknown as number));

/** The body of POST …/templates/add and PUT …/templates/{id}: the whole template. */
export function toTemplateBody(values: TemplateFormValues): DeviceEventTemplateBody {
  return {
    name: values.name,
    description: values.description || null,
    device_type_id: idOrNull(values.device_type_id),
    device_id: values.device_id ? Number(values.device_id) : null,
    norms: {
      idle: bandBody(values.norms.idle),
      heating: bandBody(values.norms.heating),
      cooking: bandBody(values.norms.cooking),
      washing: bandBody(values.norms.washing),
    },
    rules: values.rules.map(ruleBody),
    device_ids: values.device_ids.map(Number),
  };
}

/** A band of the form that can be drawn: both ends given, the lower not above the upper. */
export interface DrawnBand {
  state: NormState;
  min: number;
  max: number;
}

/** The bands the preview draws from the form's current (unsaved) values. */
export function drawnBands(norms: TemplateFormValues['norms']): DrawnBand[] {
  return NORM_STATES.flatMap((state) => {
    const min = numberOrNull(norms[state].min);
    const max = numberOrNull(norms[state].max);
    return min !== null && max !== null && min <= max ? [{ state, min, max }] : [];
  });
}

/** Whether a server field error is shown under one of the editor's fields (else it is listed in the alert). */
export function isTemplateField(field: string, rulesCount: number): boolean {
  if (['name', 'description', 'device_type_id', 'device_id', 'norms', 'rules'].includes(field)) return true;
  if (/^device_ids(\.\d+)?$/.test(field)) return true;
  if (/^norms\.(idle|heating|cooking|washing)(\.(min|max))?$/.test(field)) return true;
  const rule = /^rules\.(\d+)(?:\.(kind|state|codes(?:\.\d+)?|duration_minutes|severity))?$/.exec(field);
  return rule !== null && Number(rule[1]) < rulesCount;
}
