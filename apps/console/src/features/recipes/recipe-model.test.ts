import { RECIPE_TYPES } from '@kontrol/contracts';
import { describe, expect, it } from 'vitest';
import {
  ASSUMED_CORE_STEP_SECONDS,
  durationProblem,
  isRecipeField,
  newStep,
  parseDuration,
  plannedCurve,
  stepBody,
  stepsForType,
  withMode,
} from './recipe-model';

const combi = RECIPE_TYPES.combi_oven ?? null;
const fryer = RECIPE_TYPES.fryer ?? null;

describe('durations as a cook types them', () => {
  it('reads whole minutes or minutes and seconds, and nothing else', () => {
    expect(parseDuration('15')).toBe(900);
    expect(parseDuration(' 12:30 ')).toBe(750);
    expect(parseDuration('90:00')).toBe(5400);
    expect(parseDuration('0:05')).toBe(5);
    expect(parseDuration('')).toBeNull();
    expect(parseDuration('1:5')).toBeNull();
    expect(parseDuration('1:60')).toBeNull();
    expect(parseDuration('4 минуты')).toBeNull();
    expect(durationProblem('')).toBeNull();
    expect(durationProblem('0')).toBe('range');
    expect(durationProblem('1441')).toBe('range');
    expect(durationProblem('1440')).toBeNull();
    expect(durationProblem('abc')).toBe('format');
  });
});

describe('steps and their type', () => {
  it('sends only the fields a step’s mode and end take', () => {
    const step = { ...newStep(combi), humidity: 40, fan_speed: 2, core_temperature: 70, prompt: '  ' };
    expect(stepBody(step, combi)).toEqual({
      mode: 'steam',
      temperature: 100,
      humidity: null,
      fan_speed: 2,
      duration_seconds: 600,
      core_temperature: null,
      prompt: null,
    });
    const combination = withMode({ ...step, temperature: 290, end: 'core' }, 'combination', combi);
    expect(stepBody(combination, combi)).toEqual({
      mode: 'combination',
      temperature: 250,
      humidity: 40,
      fan_speed: 2,
      duration_seconds: null,
      core_temperature: 70,
      prompt: null,
    });
  });

  it('brings steps onto another type: its modes, and no core probe where it has none', () => {
    const steps = [{ ...newStep(combi), end: 'core' as const, core_temperature: 75 }];
    const [fried] = stepsForType(steps, fryer);
    expect(fried).toMatchObject({ mode: 'fry', temperature: 175, end: 'time' });
    expect(stepBody(fried ?? steps[0]!, fryer)).toMatchObject({ fan_speed: null, core_temperature: null });
  });
});

describe('the planned curve', () => {
  it('holds each step’s temperature for its time, core-probe steps for an assumed time', () => {
    const first = {
      ...withMode(newStep(combi), 'convection', combi),
      temperature: 180,
      duration_seconds: '10',
    };
    const probe = { ...newStep(combi), temperature: 90, end: 'core' as const };
    const unread = { ...newStep(combi), temperature: '', duration_seconds: 'x' };
    const curve = plannedCurve([first, probe, unread], combi);
    expect(
      curve.segments.map(({ start, end, temperature, assumed }) => [start, end, temperature, assumed]),
    ).toEqual([
      [0, 600, 180, false],
      [600, 600 + ASSUMED_CORE_STEP_SECONDS, 90, true],
      [600 + ASSUMED_CORE_STEP_SECONDS, 600 + ASSUMED_CORE_STEP_SECONDS, null, false],
    ]);
    expect(curve.total).toBe(600 + ASSUMED_CORE_STEP_SECONDS);
    expect(curve.assumed).toBe(ASSUMED_CORE_STEP_SECONDS);
  });
});

describe('a new step', () => {
  it('starts in the previous step’s mode, at that mode’s usual values, or in the type’s first mode', () => {
    const combination = { ...withMode(newStep(combi), 'combination', combi), temperature: 210 };
    expect(newStep(combi, combination)).toMatchObject({
      mode: 'combination',
      temperature: 160,
      humidity: 50,
      fan_speed: 3,
      end: 'time',
      duration_seconds: '10:00',
    });
    expect(newStep(combi)).toMatchObject({ mode: 'steam', temperature: 100 });
    // A mode the type does not have (the type changed since): the type's first.
    expect(newStep(fryer, combination)).toMatchObject({ mode: 'fry', temperature: 175 });
  });
});

describe('the planned curve’s values', () => {
  it('draws only what the server would take: a temperature in the mode’s range, a time in the step limit', () => {
    const hot = { ...newStep(combi), mode: 'steam' as const, temperature: 2000, duration_seconds: '10' };
    const long = { ...newStep(combi), temperature: 120, duration_seconds: '9999:00' };
    const good = { ...newStep(combi), temperature: 120, duration_seconds: '5' };
    const curve = plannedCurve([hot, long, good], combi);
    expect(curve.segments.map(({ start, end, temperature }) => [start, end, temperature])).toEqual([
      [0, 600, null],
      [600, 600, 120],
      [600, 900, 120],
    ]);
    expect(curve.total).toBe(900);
  });
});

describe('the server’s field errors', () => {
  it('land under the recipe’s fields and the existing steps’ fields; the rest is listed', () => {
    expect(isRecipeField('steps.1.temperature', 2)).toBe(true);
    expect(isRecipeField('steps.1', 2)).toBe(true);
    expect(isRecipeField('steps.2.temperature', 2)).toBe(false);
    expect(isRecipeField('steps.0.colour', 2)).toBe(false);
    expect(isRecipeField('set_ids.3', 2)).toBe(true);
    expect(isRecipeField('image', 2)).toBe(true);
    expect(isRecipeField('version', 2)).toBe(false);
  });
});
