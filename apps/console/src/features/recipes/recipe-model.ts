import {
  MAX_STEP_SECONDS,
  RECIPE_TYPES,
  STEP_MODES,
  type DeviceType,
  type ModeLimits,
  type Recipe,
  type RecipeBody,
  type RecipeStep,
  type StepMode,
} from '@kontrol/contracts';

/**
 * The recipe editor's model: the form's values and the body they become, durations as a cook
 * types them, the planned temperature curve, and which server messages land under which field.
 * Pure functions; the limits are the contracts' (RECIPE_TYPES), the server owns the rules.
 */

/** A number box's value: a number, or `''` while it is empty. */
export type NumberValue = number | string;

/** How a step ends: after its time, or when the core probe reads its target. */
export type StepEnd = 'time' | 'core';

/** What the device types that take recipes allow: their modes and whether they have a core probe. */
export type RecipeTypeRules = NonNullable<(typeof RECIPE_TYPES)[keyof typeof RECIPE_TYPES]>;

/** One step as the form holds it; named as the body names it, so `steps.1.temperature` lands here. */
export interface StepFormValue {
  /** Stable identity for React and drag-and-drop while steps move (never sent). */
  uid: string;
  mode: StepMode;
  temperature: NumberValue;
  humidity: NumberValue;
  fan_speed: NumberValue;
  end: StepEnd;
  /** As typed: minutes (`15`) or minutes and seconds (`12:30`). */
  duration_seconds: string;
  core_temperature: NumberValue;
  prompt: string;
}

/** The editor's fields, named as `recipeBodySchema` names them (the server's 422 paths). */
export interface RecipeFormValues extends Record<string, unknown> {
  name: string;
  device_type_id: string | null;
  category: string;
  description: string;
  /** The uploaded image's name (`POST /api/recipes/image`), or null. */
  image: string | null;
  /** Where to show it (never sent). */
  image_url: string | null;
  set_ids: string[];
  steps: StepFormValue[];
}

/** A new step's cabinet temperature in each mode (°C). */
const DEFAULT_TEMPERATURE: Record<StepMode, number> = {
  steam: 100,
  convection: 180,
  combination: 160,
  fry: 175,
  chill: 3,
  freeze: -18,
};
const DEFAULT_HUMIDITY = 50;
const DEFAULT_FAN_SPEED = 3;
/** A core-probe step has no planned length: the chart draws it this long, and says so. */
export const ASSUMED_CORE_STEP_SECONDS = 30 * 60;

/** The recipe rules of a device type, or null for a type that takes no recipes. */
export function recipeTypeRules(type: Pick<DeviceType, 'slug'> | undefined): RecipeTypeRules | null {
  return type ? (RECIPE_TYPES[type.slug] ?? null) : null;
}

/** The device types a recipe may be written for (those in RECIPE_TYPES), in the list's order. */
export function recipeTypes<T extends Pick<DeviceType, 'slug'>>(types: readonly T[]): T[] {
  return types.filter((type) => RECIPE_TYPES[type.slug] !== undefined);
}

/** The modes a type allows, in the contracts' order. */
export function modesOf(rules: RecipeTypeRules | null): StepMode[] {
  return rules ? STEP_MODES.filter((mode) => rules.modes[mode] !== undefined) : [];
}

/**
 * A mode's limits on the chosen type, or (no type chosen yet) on the first type that has it: the
 * modes mean the same on every type.
 */
export function modeLimits(rules: RecipeTypeRules | null, mode: StepMode): ModeLimits | null {
  const own = rules?.modes[mode];
  if (own) return own;
  for (const other of Object.values(RECIPE_TYPES)) {
    const limits = other?.modes[mode];
    if (limits) return limits;
  }
  return null;
}

const clamp = (value: number, limits: { min: number; max: number }) =>
  Math.min(limits.max, Math.max(limits.min, value));

let uidCounter = 0;
const nextUid = () => `step-${(uidCounter += 1)}`;

/**
 * A new step, ten minutes long: in the previous step's mode when there is one the type allows (a
 * cook adds steps to the program being written, not to the type's list of modes), else in the
 * type's first mode; at the mode's usual temperature, humidity and fan speed.
 */
export function newStep(
  rules: RecipeTypeRules | null,
  previous?: Pick<StepFormValue, 'mode'>,
): StepFormValue {
  const modes = modesOf(rules);
  const mode =
    previous && (rules === null || modes.includes(previous.mode))
      ? previous.mode
      : (modes[0] ?? 'convection');
  const limits = modeLimits(rules, mode);
  return {
    uid: nextUid(),
    mode,
    temperature: limits ? clamp(DEFAULT_TEMPERATURE[mode], limits.temperature) : DEFAULT_TEMPERATURE[mode],
    humidity: limits?.humidity ? DEFAULT_HUMIDITY : '',
    fan_speed: limits?.fan ? DEFAULT_FAN_SPEED : '',
    end: 'time',
    duration_seconds: '10:00',
    core_temperature: '',
    prompt: '',
  };
}

/** A copy of a step, to be put after it. */
export function copyStep(step: StepFormValue): StepFormValue {
  return { ...step, uid: nextUid() };
}

/**
 * A step in another mode: a temperature outside the new mode's range is brought inside it, and
 * humidity and fan speed get their usual values when the new mode takes them and they are empty.
 */
export function withMode(step: StepFormValue, mode: StepMode, rules: RecipeTypeRules | null): StepFormValue {
  const limits = modeLimits(rules, mode);
  if (!limits) return { ...step, mode };
  return {
    ...step,
    mode,
    temperature:
      typeof step.temperature === 'number' ? clamp(step.temperature, limits.temperature) : step.temperature,
    humidity: limits.humidity && step.humidity === '' ? DEFAULT_HUMIDITY : step.humidity,
    fan_speed: limits.fan && step.fan_speed === '' ? DEFAULT_FAN_SPEED : step.fan_speed,
  };
}

/**
 * The steps on another device type: a mode the type lacks gives way to its first mode at that
 * mode's usual temperature (an oven's 100 °C of steam means nothing to a fryer), and a step ending
 * on the core probe ends on time on a type without one.
 */
export function stepsForType(
  steps: readonly StepFormValue[],
  rules: RecipeTypeRules | null,
): StepFormValue[] {
  if (!rules) return [...steps];
  const modes = modesOf(rules);
  return steps.map((step) => {
    const first = modes[0];
    const moved =
      modes.includes(step.mode) || first === undefined
        ? step
        : withMode({ ...step, temperature: DEFAULT_TEMPERATURE[first] }, first, rules);
    return !rules.coreProbe && moved.end === 'core' ? { ...moved, end: 'time' } : moved;
  });
}

/**
 * A duration as typed: whole minutes (`15`), or minutes and seconds (`12:30`, `90:00`). Null when
 * it is empty or reads as neither.
 */
export function parseDuration(text: string): number | null {
  const value = text.trim();
  const minutes = /^(\d{1,4})$/.exec(value);
  if (minutes) return Number(minutes[1]) * 60;
  const both = /^(\d{1,4}):([0-5]\d)$/.exec(value);
  if (both) return Number(both[1]) * 60 + Number(both[2]);
  return null;
}

/** Seconds as the duration box shows them: `mm:ss`. */
export function durationText(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** Whether the duration box holds something that reads as a duration within the step limit. */
export function durationProblem(text: string): 'format' | 'range' | null {
  if (text.trim() === '') return null;
  const seconds = parseDuration(text);
  if (seconds === null) return 'format';
  return seconds < 1 || seconds > MAX_STEP_SECONDS ? 'range' : null;
}

function stepFormValue(step: RecipeStep): StepFormValue {
  const core = step.core_temperature !== null && step.duration_seconds === null;
  return {
    uid: nextUid(),
    mode: step.mode,
    temperature: step.temperature,
    humidity: step.humidity ?? '',
    fan_speed: step.fan_speed ?? '',
    end: core ? 'core' : 'time',
    duration_seconds: step.duration_seconds === null ? '' : durationText(step.duration_seconds),
    core_temperature: step.core_temperature ?? '',
    prompt: step.prompt ?? '',
  };
}

/** The form's values of a recipe, or of a new one (for a type when one is given, with one step). */
export function recipeFormValues(
  recipe: Recipe | undefined,
  types: readonly DeviceType[],
  preset: { deviceTypeId?: number } = {},
): RecipeFormValues {
  const typeId = recipe?.device_type_id ?? preset.deviceTypeId;
  const rules = recipeTypeRules(types.find((type) => type.id === typeId));
  return {
    name: recipe?.name ?? '',
    device_type_id: typeId === undefined ? null : String(typeId),
    category: recipe?.category ?? '',
    description: recipe?.description ?? '',
    image: recipe?.image ?? null,
    image_url: recipe?.image_url ?? null,
    set_ids: recipe ? recipe.set_ids.map(String) : [],
    steps: recipe ? recipe.steps.map(stepFormValue) : [newStep(rules)],
  };
}

const numberOrNull = (value: NumberValue): number | null => (typeof value === 'number' ? value : null);

/**
 * A step's body: the fields its mode and end take; the others null. A missing value is sent as
 * null and the server names it under the field (docs/contract.md, "Validation and errors shown": the server owns the rules); the body type
 * describes valid input, hence the cast.
 */
export function stepBody(step: StepFormValue, rules: RecipeTypeRules | null): RecipeStep {
  const limits = modeLimits(rules, step.mode);
  return {
    mode: step.mode,
    temperature: numberOrNull(step.temperature) as number,
    humidity: limits?.humidity ? numberOrNull(step.humidity) : null,
    fan_speed: limits?.fan ? numberOrNull(step.fan_speed) : null,
    duration_seconds: step.end === 'time' ? parseDuration(step.duration_seconds) : null,
    core_temperature: step.end === 'core' ? numberOrNull(step.core_temperature) : null,
    prompt: step.prompt.trim() || null,
  };
}

/** The body of POST /recipes/ and PUT /recipes/{id}: the whole recipe, its sets with it. */
export function toRecipeBody(values: RecipeFormValues, types: readonly DeviceType[]): RecipeBody {
  const typeId = values.device_type_id ? Number(values.device_type_id) : null;
  const rules = recipeTypeRules(types.find((type) => type.id === typeId));
  return {
    name: values.name,
    // None chosen: null, which the server answers with "required" under the field.
    device_type_id: typeId as number,
    category: values.category.trim() || null,
    description: values.description.trim() || null,
    image: values.image,
    steps: values.steps.map((step) => stepBody(step, rules)),
    set_ids: values.set_ids.map(Number),
  };
}

const STEP_FIELDS = [
  'mode',
  'temperature',
  'humidity',
  'fan_speed',
  'duration_seconds',
  'core_temperature',
  'prompt',
] as const;

/**
 * Whether a server field error shows under one of the editor's fields (else it is listed under
 * "Please fix the following errors"): the recipe's own fields, a step or one of its fields, the
 * sets.
 */
export function isRecipeField(field: string, stepsCount: number): boolean {
  if (['name', 'device_type_id', 'category', 'description', 'image', 'steps'].includes(field)) return true;
  if (/^set_ids(\.\d+)?$/.test(field)) return true;
  const step = /^steps\.(\d+)(?:\.([a-z_]+))?$/.exec(field);
  if (!step || Number(step[1]) >= stepsCount) return false;
  return step[2] === undefined || (STEP_FIELDS as readonly string[]).includes(step[2]);
}

/** One step on the planned curve: where it starts and ends on the recipe's clock (s). */
export interface CurveSegment {
  /** The step's number, from 1. */
  number: number;
  mode: StepMode;
  start: number;
  end: number;
  /** The cabinet's set temperature; null while the box is empty. */
  temperature: number | null;
  /** A core-probe step, drawn {@link ASSUMED_CORE_STEP_SECONDS} long. */
  assumed: boolean;
}

export interface PlannedCurve {
  segments: CurveSegment[];
  /** Planned seconds, core-probe steps at their assumed length. */
  total: number;
  /** Of which assumed (core-probe steps). */
  assumed: number;
}

/** A step's temperature when its mode allows it on the type, else null (not drawn). */
function validTemperature(step: StepFormValue, rules: RecipeTypeRules | null): number | null {
  const temperature = numberOrNull(step.temperature);
  const limits = modeLimits(rules, step.mode)?.temperature;
  if (temperature === null || !limits) return temperature;
  return temperature >= limits.min && temperature <= limits.max ? temperature : null;
}

/**
 * The planned cabinet temperature over the recipe's time, from the form as it stands: each step
 * holds its set temperature for its time; a core-probe step, whose length the probe decides, is
 * given an assumed length and marked. Only what the server would take is drawn: a step whose time
 * does not read or is out of range takes no time, and a temperature outside the mode's range on
 * the type is no temperature (a typo of 2000 °C does not flatten the curve).
 */
export function plannedCurve(steps: readonly StepFormValue[], rules: RecipeTypeRules | null): PlannedCurve {
  let clock = 0;
  let assumed = 0;
  const segments = steps.map((step, index) => {
    const core = step.end === 'core';
    const timed =
      durationProblem(step.duration_seconds) === null ? parseDuration(step.duration_seconds) : null;
    const length = core ? ASSUMED_CORE_STEP_SECONDS : (timed ?? 0);
    const segment: CurveSegment = {
      number: index + 1,
      mode: step.mode,
      start: clock,
      end: clock + length,
      temperature: validTemperature(step, rules),
      assumed: core,
    };
    clock += length;
    if (core) assumed += length;
    return segment;
  });
  return { segments, total: clock, assumed };
}

/** Whether a saved recipe has a step that ends on the core probe (its total time leaves those out). */
export function hasCoreSteps(recipe: Pick<Recipe, 'steps'>): boolean {
  return recipe.steps.some((step) => step.duration_seconds === null && step.core_temperature !== null);
}
