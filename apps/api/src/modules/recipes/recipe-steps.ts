import {
  RECIPE_TYPES,
  type DeviceTypeSlug,
  type MessageKey,
  type MessageParams,
  type RecipeStep,
} from '@kontrol/contracts';

/** What a device type lets recipes do, or undefined for a type that takes no recipes. */
export function recipeRulesOf(typeSlug: string) {
  return Object.hasOwn(RECIPE_TYPES, typeSlug) ? RECIPE_TYPES[typeSlug as DeviceTypeSlug] : undefined;
}

export interface StepErrors {
  fields: Record<string, MessageKey[]>;
  /** Placeholder values per field (`steps.N.temperature` → the range of that step's mode). */
  params: Record<string, MessageParams>;
}

/**
 * The rules of steps the schema cannot check, as the type allows (docs/recipes.md, the limits
 * table): the mode is one of the type's; the temperature is in the mode's range; humidity only in
 * modes that take it, fan speed only in modes with a fan; a step ends either after a time or on a
 * core temperature, never both and never neither; and on a core temperature only on a type with
 * a core probe. The type must take recipes ({@link recipeRulesOf}).
 */
export function stepErrors(typeSlug: string, steps: readonly RecipeStep[]): StepErrors {
  const errors: StepErrors = { fields: {}, params: {} };
  const rules = recipeRulesOf(typeSlug);
  if (!rules) return errors;
  const modes = Object.keys(rules.modes);
  steps.forEach((step, index) => {
    const at = (field: string) => `steps.${index}.${field}`;
    const fail = (field: string, key: MessageKey, params?: MessageParams) => {
      errors.fields[at(field)] = [key];
      if (params) errors.params[at(field)] = params;
    };
    if ((step.duration_seconds === null) === (step.core_temperature === null))
      fail('duration_seconds', 'recipe.step_end');
    if (step.core_temperature !== null && !rules.coreProbe) fail('core_temperature', 'recipe.core_probe');
    const limits = rules.modes[step.mode];
    if (!limits) {
      fail('mode', 'recipe.mode', { modes: modes.join(', ') });
      return;
    }
    const { min, max } = limits.temperature;
    if (step.temperature < min || step.temperature > max)
      fail('temperature', 'recipe.temperature', { min, max });
    if (step.humidity !== null && !limits.humidity) fail('humidity', 'recipe.humidity');
    if (step.fan_speed !== null && !limits.fan) fail('fan_speed', 'recipe.fan_speed');
  });
  return errors;
}

/** A step with its fields in the program file's order, nothing more (what `steps` stores). */
export function canonicalStep(step: RecipeStep): RecipeStep {
  return {
    mode: step.mode,
    temperature: step.temperature,
    humidity: step.humidity,
    fan_speed: step.fan_speed,
    duration_seconds: step.duration_seconds,
    core_temperature: step.core_temperature,
    prompt: step.prompt,
  };
}

/** Total planned time: the sum of the durations, a core-probe step counting as nothing. */
export function totalDuration(steps: readonly RecipeStep[]): number {
  return steps.reduce((sum, step) => sum + (step.duration_seconds ?? 0), 0);
}
