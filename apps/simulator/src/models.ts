import {
  DEVICE_TYPE_SLUGS,
  SAMPLE_LIMITS,
  type DeviceState,
  type DeviceTypeSlug,
  type TelemetrySampleInput,
} from '@kontrol/contracts';
import { dice, hashText, mix32, noiseAt, type Dice } from './random.js';
import { HOUR_MS, MINUTE_MS, isTimeZone, localDayNumber, localToEpoch, parseTimeOfDay } from './time-zone.js';

/**
 * How each type of kitchen equipment behaves over a day, as a pure function of time: the sample of
 * a device at a moment depends only on its profile and that moment. So back-filling two weeks and
 * running live give the same history, and the same seed gives the same samples on every machine.
 *
 * Each local day gets a plan built from a PRNG seeded by (device seed, day): when the device is
 * switched on, which programs run, when it washes, faults and offline spells. Within a plan the
 * chamber temperature follows a first-order lag towards each stretch's target (what a thermostat
 * and a heater look like from outside), and per-sample noise comes from a hash of the timestamp.
 * The patterns are described in README.md.
 */

/** One simulated device: what it is and the kitchen it works in. */
export interface DeviceProfile {
  type: DeviceTypeSlug;
  controllerId: string;
  /** Planned local start of work, `HH:MM`. Default 08:00. */
  shiftStart?: string;
  /** IANA time zone of the kitchen. Default Europe/Moscow. */
  timeZone?: string;
  /** Mixed with the controller id, so devices sharing a seed still differ. Default 1. */
  seed?: number;
  /** Probability (0–1) that the device has a fault on a given day. Default 0.02. */
  failureRate?: number;
  /** Probability (0–1) of an offline spell (10–60 min without samples) on a given day. Default 0.1. */
  offlineRate?: number;
}

export const DEFAULT_SHIFT_START = '08:00';
export const DEFAULT_TIME_ZONE = 'Europe/Moscow';
export const DEFAULT_FAILURE_RATE = 0.02;
export const DEFAULT_OFFLINE_RATE = 0.1;

/** What a device type puts in its samples (the seeded device types' `telemetry` lists). */
export interface ReportedFields {
  temperature: boolean;
  door: boolean;
  coreTemperature: boolean;
  humidity: boolean;
  /** Has a cleaning cycle reported as `washing`. */
  wash: boolean;
}

export const REPORTED_FIELDS: Record<DeviceTypeSlug, ReportedFields> = {
  combi_oven: { temperature: true, door: true, coreTemperature: true, humidity: true, wash: true },
  convection_oven: { temperature: true, door: true, coreTemperature: true, humidity: false, wash: false },
  fryer: { temperature: true, door: false, coreTemperature: false, humidity: false, wash: false },
  dishwasher: { temperature: true, door: true, coreTemperature: false, humidity: false, wash: true },
  refrigerator: { temperature: true, door: true, coreTemperature: false, humidity: false, wash: false },
  freezer: { temperature: true, door: true, coreTemperature: false, humidity: false, wash: false },
  blast_chiller: { temperature: true, door: true, coreTemperature: true, humidity: false, wash: false },
  induction_hob: { temperature: false, door: false, coreTemperature: false, humidity: false, wash: false },
  other: { temperature: false, door: false, coreTemperature: false, humidity: false, wash: false },
};

/** A sample as the simulator makes it: always epoch milliseconds, never ISO text. */
export type SimulatedSample = TelemetrySampleInput & { ts: number };

/** A device's behaviour, ready to be asked for samples. Keeps a few day plans cached. */
export interface DeviceModel {
  readonly controllerId: string;
  readonly type: DeviceTypeSlug;
  readonly fields: ReportedFields;
  /** The sample at `ts`, or undefined while the device is in an offline spell. */
  sampleAt(ts: number): SimulatedSample | undefined;
}

/** Temperature of a kitchen; where switched-off equipment settles. */
const KITCHEN_TEMPERATURE = 24;
/** Nothing in a hot kitchen runs past this local time, so every device is cold again by midnight. */
const LATEST_END_MIN = 22 * 60;

// Salts keep the independent random streams of one device apart.
const SALT_DEVICE = 0x5eed;
const SALT_FAULT = 0xfa17;
const SALT_OFFLINE = 0x0ff1;
const SALT_NOISE_CURRENT = 1;
const SALT_NOISE_DUTY = 2;
const SALT_NOISE_SENSOR = 3;
const SALT_DOOR = 4;
const SALT_DOOR_AT = 5;
const SALT_DOOR_LENGTH = 6;
const SALT_CYCLE = 7;

/** What the device is doing at one moment, before it is cut down to its type's fields. */
interface Reading {
  state: DeviceState;
  current: number;
  temperature: number;
  doorOpen: boolean;
  program?: string;
  errorCode?: string;
  coreTemperature?: number;
  humidity?: number;
}

/** A local day of one device. */
interface DayPlan {
  start: number;
  end: number;
  /** Spells with no samples at all (`[start, end)`). */
  offline: Array<[number, number]>;
  read(ts: number): Reading;
}

/** Per-sample context for a stretch's current: the noise makes a thermostat click on and off. */
interface Moment {
  t: number;
  start: number;
  temperature: number;
  target: number;
  /** Uniform [0, 1): the amplitude wobble. */
  noise: number;
  /** Uniform [0, 1): whether a cycling heater or compressor is on. */
  duty: number;
}

/** A stretch of the day during which the device does one thing. */
interface Segment {
  start: number;
  end: number;
  state: DeviceState;
  program?: string;
  errorCode?: string;
  door?: boolean | ((t: number) => boolean);
  /** The chamber temperature approaches `target` with time constant `tauMin` minutes, from `from`. */
  target: number;
  tauMin: number;
  from: number;
  amps: (moment: Moment) => number;
  humidity?: number;
  /** A core probe in the product: from → to over the stretch. */
  core?: { from: number; to: number; tauMin: number };
  /** Degrees added on top of the chamber temperature (the dishwasher's final rinse). */
  boost?: (t: number) => number;
}

type SegmentSpec = Omit<Segment, 'start' | 'end' | 'from'>;

/** Everything a day-plan builder needs to know. */
interface DayContext {
  dice: Dice;
  seed: number;
  dayStart: number;
  dayEnd: number;
  /** Epoch ms of a local time of this day, in minutes after midnight. */
  at(minutes: number): number;
  shiftStartMin: number;
}

// ---------------------------------------------------------------------------------------------
// Building blocks of a day

function temperatureAt(segment: Segment, t: number): number {
  const minutes = (t - segment.start) / MINUTE_MS;
  return segment.target + (segment.from - segment.target) * Math.exp(-minutes / segment.tauMin);
}

/** Minutes a first-order lag from `from` towards `target` takes to reach `goal` (0 if never). */
function minutesToReach(from: number, target: number, goal: number, tauMin: number): number {
  const ratio = (from - target) / (goal - target);
  return ratio > 1 ? tauMin * Math.log(ratio) : 0;
}

/** Appends stretches one after another and carries the temperature over from each to the next. */
class Timeline {
  readonly segments: Segment[] = [];

  constructor(
    public t: number,
    public temperature: number,
  ) {}

  add(durationMs: number, spec: SegmentSpec): void {
    const end = Math.round(this.t + Math.max(0, durationMs));
    if (end <= this.t) return;
    const segment: Segment = { ...spec, start: this.t, end, from: this.temperature };
    this.segments.push(segment);
    this.temperature = temperatureAt(segment, end);
    this.t = end;
  }

  /** Fills the time up to `until` with one stretch (nothing if already there). */
  fillUntil(until: number, spec: SegmentSpec): void {
    if (until > this.t) this.add(until - this.t, spec);
  }
}

/** Replaces `[start, end)` of a day with a fault and carries the temperatures over again. */
function withFault(segments: Segment[], start: number, end: number, fault: SegmentSpec): Segment[] {
  const before = segments
    .filter((segment) => segment.start < start)
    .map((segment) => ({ ...segment, end: Math.min(segment.end, start) }));
  const after = segments
    .filter((segment) => segment.end > end)
    .map((segment) => ({ ...segment, start: Math.max(segment.start, end) }));
  const result = [...before, { ...fault, start, end, from: KITCHEN_TEMPERATURE }, ...after];
  for (let i = 1; i < result.length; i++) {
    const previous = result[i - 1] as Segment;
    (result[i] as Segment).from = temperatureAt(previous, previous.end);
  }
  return result;
}

function findSegment(segments: Segment[], t: number): Segment {
  let low = 0;
  let high = segments.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((segments[middle] as Segment).start <= t) low = middle;
    else high = middle - 1;
  }
  return segments[low] as Segment;
}

/** Current of a heater running flat out (±4 %). */
const flatOut =
  (amps: number) =>
  (m: Moment): number =>
    amps * (0.96 + 0.08 * m.noise);

/** Current of electronics, fans and lights only: `amps` ±20 %. */
const standby =
  (amps: number) =>
  (m: Moment): number =>
    amps * (0.8 + 0.4 * m.noise);

/**
 * A thermostat: the heater is on while the chamber is well below its target, then cycles on and
 * off (about `duty` of the time) to hold it.
 */
const thermostat =
  (heater: number, idle: number, duty = 0.45) =>
  (m: Moment): number =>
    m.temperature < m.target - 8 || m.duty < duty ? flatOut(heater)(m) : standby(idle)(m);

/** The same for a compressor: on while the chamber is well above its target, then cycling. */
const compressor =
  (amps: number, idle: number, duty = 0.4) =>
  (m: Moment): number =>
    m.temperature > m.target + 3 || m.duty < duty ? flatOut(amps)(m) : standby(idle)(m);

function readSegment(segment: Segment, t: number, seed: number): Reading {
  const temperature = temperatureAt(segment, t);
  const moment: Moment = {
    t,
    start: segment.start,
    temperature,
    target: segment.target,
    noise: noiseAt(seed, t, SALT_NOISE_CURRENT),
    duty: noiseAt(seed, t, SALT_NOISE_DUTY),
  };
  const sensor = noiseAt(seed, t, SALT_NOISE_SENSOR) - 0.5;
  const reading: Reading = {
    state: segment.state,
    current: segment.amps(moment),
    temperature: temperature + (segment.boost?.(t) ?? 0) + sensor * 0.6,
    doorOpen: typeof segment.door === 'function' ? segment.door(t) : (segment.door ?? false),
  };
  if (segment.program) reading.program = segment.program;
  if (segment.errorCode) reading.errorCode = segment.errorCode;
  if (segment.humidity !== undefined) reading.humidity = segment.humidity + sensor * 4;
  if (segment.core) {
    const { from, to, tauMin } = segment.core;
    // Approaches a little past `to`, so it reaches `to` exactly at the end of the stretch.
    const aim = to + 5 * Math.sign(to - from);
    const core = aim + (from - aim) * Math.exp(-(t - segment.start) / MINUTE_MS / tauMin);
    reading.coreTemperature = (to > from ? Math.min(core, to) : Math.max(core, to)) + sensor * 0.2;
  }
  return reading;
}

/** The time constant that brings a probe from `from` to `to` in `minutes` (see readSegment). */
function coreTau(from: number, to: number, minutes: number): number {
  const aim = to + 5 * Math.sign(to - from);
  return minutes / Math.log((aim - from) / (aim - to));
}

const off: SegmentSpec = { state: 'off', target: KITCHEN_TEMPERATURE, tauMin: 30, amps: () => 0 };

/**
 * When the device is switched on and off today: shift start with a little jitter (cooks switch
 * ovens on a bit early), and one day in twelve a late start (the dashboard's "slow to start").
 */
function workWindow(
  ctx: DayContext,
  lengthHours: [number, number],
  latestEndMin = LATEST_END_MIN,
): { on: number; off: number } {
  const late = ctx.dice.chance(1 / 12);
  const offsetMin = late ? ctx.dice.between(20, 90) : ctx.dice.between(-25, 10);
  const on = Math.min(ctx.at(ctx.shiftStartMin + offsetMin), ctx.dayEnd - 3 * HOUR_MS);
  let end = Math.min(on + ctx.dice.between(lengthHours[0], lengthHours[1]) * HOUR_MS, ctx.at(latestEndMin));
  if (end < on + 2 * HOUR_MS) end = Math.min(on + 2 * HOUR_MS, ctx.dayEnd - 30 * MINUTE_MS);
  // Whole milliseconds, so the stretches that fill the day up to `off` always end exactly there.
  return { on: Math.round(on), off: Math.round(end) };
}

/** Lunch and dinner: orders come one after another. */
function isRush(ctx: DayContext, t: number): boolean {
  const hour = (t - ctx.dayStart) / HOUR_MS;
  return (hour >= 12 && hour < 15) || (hour >= 18 && hour < 21);
}

// ---------------------------------------------------------------------------------------------
// Ovens: combi and convection

interface OvenProgram {
  name: string;
  setpoint: number;
  humidity: number;
  minutes: [number, number];
  /** Core-probe target, for programs that end on the product's core temperature. */
  core?: number;
}

const COMBI_PROGRAMS: OvenProgram[] = [
  { name: 'Курица гриль', setpoint: 200, humidity: 30, minutes: [35, 50], core: 82 },
  { name: 'Овощи на пару', setpoint: 100, humidity: 100, minutes: [12, 20] },
  { name: 'Запечённая рыба', setpoint: 160, humidity: 50, minutes: [15, 25], core: 62 },
  { name: 'Булочки', setpoint: 180, humidity: 10, minutes: [15, 20] },
  { name: 'Ростбиф', setpoint: 140, humidity: 40, minutes: [45, 70], core: 56 },
  { name: 'Рис', setpoint: 100, humidity: 100, minutes: [25, 30] },
  { name: 'Лазанья', setpoint: 190, humidity: 20, minutes: [30, 40], core: 75 },
];

const CONVECTION_PROGRAMS: OvenProgram[] = [
  { name: 'Круассаны', setpoint: 175, humidity: 0, minutes: [16, 20] },
  { name: 'Хлеб', setpoint: 200, humidity: 0, minutes: [25, 35] },
  { name: 'Пирог', setpoint: 170, humidity: 0, minutes: [35, 45] },
  { name: 'Печенье', setpoint: 160, humidity: 0, minutes: [10, 14] },
  { name: 'Курица', setpoint: 190, humidity: 0, minutes: [35, 45], core: 82 },
  { name: 'Запеканка', setpoint: 180, humidity: 0, minutes: [25, 35], core: 75 },
];

interface OvenSpec {
  programs: OvenProgram[];
  heaterAmps: number;
  idleAmps: number;
  /** Combi ovens clean themselves at the end of most days. */
  washes: boolean;
  reportsHumidity: boolean;
}

function ovenDay(ctx: DayContext, spec: OvenSpec): Segment[] {
  const { dice } = ctx;
  const washMinutes = dice.int(60, 150);
  const washToday = spec.washes && dice.chance(0.85);
  const window = workWindow(ctx, [11, 14], LATEST_END_MIN - (washToday ? washMinutes : 0));
  const humidity = (value: number) => (spec.reportsHumidity ? value : undefined);
  const idle: SegmentSpec = {
    state: 'idle',
    target: KITCHEN_TEMPERATURE,
    tauMin: 45,
    amps: standby(spec.idleAmps),
    humidity: humidity(15),
  };

  const line = new Timeline(ctx.dayStart, KITCHEN_TEMPERATURE);
  line.fillUntil(window.on, off);
  for (;;) {
    const program = dice.pick(spec.programs);
    const cookMinutes = dice.between(program.minutes[0], program.minutes[1]);
    const loadMinutes = dice.between(0.5, 1.5);
    const unloadMinutes = dice.between(0.3, 1);
    // Preheat: a heater flat out towards well above the setpoint, stopped when it gets there.
    const preheatTarget = program.setpoint + 40;
    const preheatMinutes =
      line.temperature < program.setpoint - 15
        ? minutesToReach(line.temperature, preheatTarget, program.setpoint, 7)
        : 0;
    const cycleMinutes = preheatMinutes + loadMinutes + cookMinutes + unloadMinutes;
    if (line.t + cycleMinutes * MINUTE_MS > window.off) break;

    const programHumidity = humidity(program.humidity);
    line.add(preheatMinutes * MINUTE_MS, {
      state: 'heating',
      program: program.name,
      target: preheatTarget,
      tauMin: 7,
      amps: flatOut(spec.heaterAmps),
      humidity: programHumidity,
    });
    // Loading: the door is open and the chamber loses heat fast.
    line.add(loadMinutes * MINUTE_MS, {
      state: 'cooking',
      program: program.name,
      door: true,
      target: KITCHEN_TEMPERATURE + 40,
      tauMin: 2,
      amps: standby(spec.idleAmps),
      humidity: programHumidity,
    });
    const coreFrom = dice.between(3, 12);
    line.add(cookMinutes * MINUTE_MS, {
      state: 'cooking',
      program: program.name,
      target: program.setpoint,
      tauMin: 4,
      amps: thermostat(spec.heaterAmps, spec.idleAmps),
      humidity: programHumidity,
      core:
        program.core === undefined
          ? undefined
          : { from: coreFrom, to: program.core, tauMin: coreTau(coreFrom, program.core, cookMinutes) },
    });
    line.add(unloadMinutes * MINUTE_MS, {
      ...idle,
      door: true,
      target: KITCHEN_TEMPERATURE + 40,
      tauMin: 2,
    });
    const gapMinutes = isRush(ctx, line.t) ? dice.between(2, 10) : dice.between(10, 45);
    line.add(Math.min(gapMinutes * MINUTE_MS, window.off - line.t), idle);
  }
  line.fillUntil(window.off, idle);
  if (washToday) {
    // Cleaning: the steam generator heats the water, then pumps spray detergent and rinse aid.
    line.add(washMinutes * MINUTE_MS, {
      state: 'washing',
      program: 'Мойка: средняя',
      target: 75,
      tauMin: 10,
      humidity: humidity(100),
      amps: (m) =>
        ((m.t - m.start) / MINUTE_MS) % 12 < 5
          ? flatOut(spec.heaterAmps * 0.6)(m)
          : standby(spec.idleAmps + 1.5)(m),
    });
  }
  line.fillUntil(ctx.dayEnd, off);
  return line.segments;
}

// ---------------------------------------------------------------------------------------------
// Fryer

const FRYER_PROGRAMS = ['Картофель фри', 'Наггетсы', 'Кольца кальмара', 'Крылья'];
const FRYER_SETPOINT = 175;

function fryerDay(ctx: DayContext, heaterAmps: number, idleAmps: number): Segment[] {
  const { dice } = ctx;
  const window = workWindow(ctx, [10, 13]);
  const heatUp = (line: Timeline) =>
    line.add(minutesToReach(line.temperature, FRYER_SETPOINT + 40, FRYER_SETPOINT, 8) * MINUTE_MS, {
      state: 'heating',
      target: FRYER_SETPOINT + 40,
      tauMin: 8,
      amps: flatOut(heaterAmps),
    });
  // Standby mode: the oil is let down to 150 °C between orders, the heater mostly off.
  const standbyOil: SegmentSpec = {
    state: 'idle',
    target: 150,
    tauMin: 25,
    amps: thermostat(heaterAmps, idleAmps, 0.1),
  };

  const line = new Timeline(ctx.dayStart, KITCHEN_TEMPERATURE);
  line.fillUntil(window.on, off);
  heatUp(line);
  while (line.t < window.off - 15 * MINUTE_MS) {
    const gapMinutes = isRush(ctx, line.t) ? dice.between(1, 6) : dice.between(10, 40);
    line.add(Math.min(gapMinutes * MINUTE_MS, window.off - line.t), standbyOil);
    if (line.t >= window.off - 10 * MINUTE_MS) break;
    if (line.temperature < FRYER_SETPOINT - 10) heatUp(line);
    const program = dice.pick(FRYER_PROGRAMS);
    // The basket goes in: frozen food takes the oil down by 20–30 °C, the heater wins it back.
    line.add(MINUTE_MS, {
      state: 'cooking',
      program,
      target: 120,
      tauMin: 1.5,
      amps: flatOut(heaterAmps),
    });
    line.add(dice.between(2, 5) * MINUTE_MS, {
      state: 'cooking',
      program,
      target: FRYER_SETPOINT + 7,
      tauMin: 3,
      amps: thermostat(heaterAmps, idleAmps),
    });
  }
  line.fillUntil(window.off, standbyOil);
  line.fillUntil(ctx.dayEnd, off);
  return line.segments;
}

// ---------------------------------------------------------------------------------------------
// Dishwasher

const DISHWASHER_PROGRAMS = ['Стандарт', 'Интенсивная', 'Стаканы'];
const TANK_TEMPERATURE = 61;

function dishwasherDay(ctx: DayContext, boilerAmps: number, idleAmps: number): Segment[] {
  const { dice } = ctx;
  const window = workWindow(ctx, [12, 14.5]);
  const hotTank: SegmentSpec = {
    state: 'idle',
    target: TANK_TEMPERATURE,
    tauMin: 30,
    amps: thermostat(boilerAmps * 0.5, idleAmps, 0.08),
  };

  const line = new Timeline(ctx.dayStart, KITCHEN_TEMPERATURE);
  line.fillUntil(window.on, off);
  // Filling and heating the tank.
  line.add(minutesToReach(line.temperature, 72, 60, 8) * MINUTE_MS, {
    state: 'heating',
    target: 72,
    tauMin: 8,
    amps: flatOut(boilerAmps),
  });
  // Wash sessions spread over the day (after breakfast, lunch, dinner…), 20–90 min each.
  const sessions = dice.int(3, 6);
  const firstPossible = line.t;
  const span = window.off - firstPossible;
  for (let i = 0; i < sessions; i++) {
    const minutes = dice.between(20, 90);
    const centre = firstPossible + (span * (i + 0.5)) / sessions + dice.between(-20, 20) * MINUTE_MS;
    const start = Math.max(centre - (minutes / 2) * MINUTE_MS, line.t + 5 * MINUTE_MS);
    const end = Math.min(start + minutes * MINUTE_MS, window.off - 5 * MINUTE_MS);
    if (end - start < 15 * MINUTE_MS) continue;
    line.fillUntil(start, hotTank);
    // Racks go through one after another: door open to load, wash, final rinse at 82–85 °C.
    const rackMs = dice.between(100, 180) * 1000;
    const loadMs = dice.between(15, 30) * 1000;
    const rinseMs = 15_000;
    const phase = (t: number) => (t - start) % rackMs;
    line.add(end - start, {
      state: 'washing',
      program: dice.pick(DISHWASHER_PROGRAMS),
      target: TANK_TEMPERATURE + 1,
      tauMin: 5,
      door: (t) => phase(t) < loadMs,
      boost: (t) => (phase(t) >= rackMs - rinseMs ? 22 : 0),
      amps: (m) => {
        const p = phase(m.t);
        if (p < loadMs) return standby(idleAmps)(m);
        if (p >= rackMs - rinseMs) return flatOut(boilerAmps + 2.5)(m);
        return flatOut(2.5 + (m.duty < 0.5 ? boilerAmps * 0.8 : 0))(m);
      },
    });
  }
  line.fillUntil(window.off, hotTank);
  line.fillUntil(ctx.dayEnd, off);
  return line.segments;
}

// ---------------------------------------------------------------------------------------------
// Blast chiller

function blastChillerDay(ctx: DayContext, compressorAmps: number, idleAmps: number): Segment[] {
  const { dice } = ctx;
  const window = workWindow(ctx, [10, 13]);
  const hold: SegmentSpec = {
    state: 'idle',
    target: 3,
    tauMin: 15,
    amps: compressor(compressorAmps * 0.6, idleAmps),
  };
  const doorOpen: SegmentSpec = { ...hold, door: true, target: KITCHEN_TEMPERATURE, tauMin: 5 };

  const line = new Timeline(ctx.dayStart, KITCHEN_TEMPERATURE);
  line.fillUntil(window.on, off);
  line.add(dice.between(30, 90) * MINUTE_MS, hold);
  for (;;) {
    const freeze = dice.chance(0.3);
    const minutes = freeze ? dice.between(180, 240) : dice.between(80, 110);
    const loadMinutes = dice.between(1, 2);
    const unloadMinutes = dice.between(1, 2);
    if (line.t + (loadMinutes + minutes + unloadMinutes) * MINUTE_MS > window.off) break;
    line.add(loadMinutes * MINUTE_MS, doorOpen);
    // A chill cycle: the product's core from 60–80 °C to +3 °C (or −18 °C when freezing).
    const coreFrom = dice.between(60, 80);
    const coreTo = freeze ? -18 : 3;
    line.add(minutes * MINUTE_MS, {
      state: 'cooking',
      program: freeze ? 'Шоковая заморозка −18' : 'Охлаждение +3',
      target: freeze ? -35 : -18,
      tauMin: 10,
      amps: flatOut(compressorAmps),
      core: { from: coreFrom, to: coreTo, tauMin: coreTau(coreFrom, coreTo, minutes) },
    });
    line.add(unloadMinutes * MINUTE_MS, doorOpen);
    line.add(Math.min(dice.between(20, 120) * MINUTE_MS, window.off - line.t), hold);
  }
  line.fillUntil(window.off, hold);
  line.fillUntil(ctx.dayEnd, off);
  return line.segments;
}

// ---------------------------------------------------------------------------------------------
// Induction hob and other equipment (current only)

function hobDay(ctx: DayContext, ratedAmps: number, idleAmps: number): Segment[] {
  const { dice } = ctx;
  const window = workWindow(ctx, [10, 13]);
  const idle: SegmentSpec = {
    state: 'idle',
    target: KITCHEN_TEMPERATURE,
    tauMin: 30,
    amps: standby(idleAmps),
  };
  const line = new Timeline(ctx.dayStart, KITCHEN_TEMPERATURE);
  line.fillUntil(window.on, off);
  while (line.t < window.off) {
    const gapMinutes = isRush(ctx, line.t) ? dice.between(2, 10) : dice.between(10, 50);
    line.add(Math.min(gapMinutes * MINUTE_MS, window.off - line.t), idle);
    const level = dice.between(0.3, 1);
    // Pans on and off several zones: the current wanders around the chosen power level.
    line.add(Math.min(dice.between(5, 30) * MINUTE_MS, window.off - line.t), {
      state: 'cooking',
      target: KITCHEN_TEMPERATURE,
      tauMin: 30,
      amps: (m) => ratedAmps * level * (0.75 + 0.5 * m.noise),
    });
  }
  line.fillUntil(ctx.dayEnd, off);
  return line.segments;
}

function otherDay(ctx: DayContext, ratedAmps: number, idleAmps: number): Segment[] {
  const { dice } = ctx;
  const window = workWindow(ctx, [10, 13]);
  const idle: SegmentSpec = {
    state: 'idle',
    target: KITCHEN_TEMPERATURE,
    tauMin: 30,
    amps: standby(idleAmps),
  };
  const line = new Timeline(ctx.dayStart, KITCHEN_TEMPERATURE);
  line.fillUntil(window.on, off);
  // A slicer or a vacuum packer: short runs now and then.
  while (line.t < window.off) {
    line.add(Math.min(dice.between(15, 90) * MINUTE_MS, window.off - line.t), idle);
    line.add(Math.min(dice.between(1, 5) * MINUTE_MS, window.off - line.t), {
      state: 'cooking',
      target: KITCHEN_TEMPERATURE,
      tauMin: 30,
      amps: flatOut(ratedAmps),
    });
  }
  line.fillUntil(ctx.dayEnd, off);
  return line.segments;
}

// ---------------------------------------------------------------------------------------------
// Refrigeration: refrigerators and freezers run all day and night

interface Refrigeration {
  /** Compressor cut-out and cut-in temperatures. */
  low: number;
  high: number;
  cycleMs: number;
  /** Share of a cycle the compressor runs, at night; more while the kitchen works. */
  duty: number;
  compressorAmps: number;
  idleAmps: number;
  /** Probability of a door opening in a five-minute slot of working hours. */
  doorChance: number;
  /** Degrees one opening adds. */
  doorWarming: number;
}

const DOOR_SLOT_MS = 5 * MINUTE_MS;
const PULL_DOWN_PER_MINUTE = 0.25;

function refrigerationDay(ctx: DayContext, fridge: Refrigeration, fault: FaultPlan | undefined): DayPlan {
  const { seed } = ctx;
  const workFrom = ctx.at(ctx.shiftStartMin - 30);
  const workTo = Math.min(workFrom + 13.5 * HOUR_MS, ctx.at(23 * 60));
  const working = (t: number) => t >= workFrom && t < workTo;
  const offsetMs = (seed % 997) * 1000;
  const normalTemperature = (fridge.low + fridge.high) / 2;

  /** The compressor's sawtooth: cooling from `high` to `low` while on, warming back while off. */
  function cycle(t: number): { on: boolean; temperature: number } {
    const shifted = t + offsetMs;
    const index = Math.floor(shifted / fridge.cycleMs);
    const phase = shifted - index * fridge.cycleMs;
    const cycleStart = t - phase;
    const duty =
      fridge.duty + (working(cycleStart) ? 0.12 : 0) + (noiseAt(seed, index, SALT_CYCLE) - 0.5) * 0.1;
    const onMs = duty * fridge.cycleMs;
    const span = fridge.high - fridge.low;
    return phase < onMs
      ? { on: true, temperature: fridge.high - (span * phase) / onMs }
      : { on: false, temperature: fridge.low + (span * (phase - onMs)) / (fridge.cycleMs - onMs) };
  }

  /** Door openings in working hours, and the warm air each lets in (fading over ~8 min). */
  function door(t: number): { open: boolean; warming: number } {
    let open = false;
    let warming = 0;
    const slot = Math.floor(t / DOOR_SLOT_MS);
    for (let s = slot - 3; s <= slot; s++) {
      const slotStart = s * DOOR_SLOT_MS;
      if (!working(slotStart) || noiseAt(seed, s, SALT_DOOR) >= fridge.doorChance) continue;
      const openAt = slotStart + noiseAt(seed, s, SALT_DOOR_AT) * 4 * MINUTE_MS;
      const lengthMs = (10 + 50 * noiseAt(seed, s, SALT_DOOR_LENGTH)) * 1000;
      if (t < openAt) continue;
      if (t < openAt + lengthMs) {
        open = true;
        warming += (fridge.doorWarming * (t - openAt)) / lengthMs;
      } else {
        warming += fridge.doorWarming * Math.exp(-(t - openAt - lengthMs) / (8 * MINUTE_MS));
      }
    }
    // Openings in a row do not add up without end: the compressor is running meanwhile.
    return { open, warming: Math.min(warming, 2 * fridge.doorWarming) };
  }

  // After a fault the compressor runs flat out until the cabinet is back at its cut-out point.
  const faultEndTemperature = fault
    ? normalTemperature +
      (KITCHEN_TEMPERATURE - normalTemperature) * (1 - Math.exp(-(fault.end - fault.start) / (4 * HOUR_MS)))
    : normalTemperature;
  const pullDownEnd = fault
    ? fault.end + ((faultEndTemperature - fridge.low) / PULL_DOWN_PER_MINUTE) * MINUTE_MS
    : 0;

  return {
    start: ctx.dayStart,
    end: ctx.dayEnd,
    offline: [],
    read(t) {
      const noise = noiseAt(seed, t, SALT_NOISE_CURRENT);
      const sensor = (noiseAt(seed, t, SALT_NOISE_SENSOR) - 0.5) * 0.3;
      const doorNow = door(t);
      const running = flatOut(fridge.compressorAmps);
      const resting = standby(fridge.idleAmps);
      const moment = { t, start: t, temperature: 0, target: 0, noise, duty: 0 };
      if (fault && t >= fault.start && t < fault.end) {
        // The compressor has stopped: the cabinet warms towards the kitchen (a HACCP alarm).
        const temperature =
          normalTemperature +
          (KITCHEN_TEMPERATURE - normalTemperature) * (1 - Math.exp(-(t - fault.start) / (4 * HOUR_MS)));
        return {
          state: 'fault',
          errorCode: fault.errorCode,
          current: resting(moment),
          temperature: temperature + doorNow.warming + sensor,
          doorOpen: doorNow.open,
        };
      }
      if (fault && t >= fault.end && t < pullDownEnd) {
        const temperature = faultEndTemperature - ((t - fault.end) / MINUTE_MS) * PULL_DOWN_PER_MINUTE;
        return {
          state: 'idle',
          current: running(moment),
          temperature: temperature + doorNow.warming + sensor,
          doorOpen: doorNow.open,
        };
      }
      const now = cycle(t);
      return {
        state: 'idle',
        current: now.on ? running(moment) : resting(moment),
        temperature: now.temperature + doorNow.warming + sensor,
        doorOpen: doorNow.open,
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Faults and offline spells

interface FaultPlan {
  start: number;
  end: number;
  errorCode: string;
}

const ERROR_CODES: Record<DeviceTypeSlug, string[]> = {
  combi_oven: ['E12', 'E24', 'E34', 'E93'],
  convection_oven: ['E05', 'E13', 'E21'],
  fryer: ['E03', 'E07', 'E11'],
  dishwasher: ['E15', 'E20', 'E31'],
  refrigerator: ['HA', 'HA', 'E1'],
  freezer: ['HA', 'HA', 'E1'],
  blast_chiller: ['AL1', 'E2'],
  induction_hob: ['E5', 'E7'],
  other: ['E01'],
};

/** Whether today has a fault, and when; drawn from its own stream so the rest of the day is unchanged. */
function planFault(
  type: DeviceTypeSlug,
  seed: number,
  day: number,
  failureRate: number,
  within: [number, number],
): FaultPlan | undefined {
  const faultDice = dice(mix32(seed ^ SALT_FAULT, day));
  if (faultDice.next() >= failureRate) return undefined;
  const [from, to] = within;
  if (to - from < 20 * MINUTE_MS) return undefined;
  const start = from + faultDice.next() * (to - from - 10 * MINUTE_MS);
  const end = Math.min(start + faultDice.between(10, 90) * MINUTE_MS, to);
  return { start: Math.round(start), end: Math.round(end), errorCode: faultDice.pick(ERROR_CODES[type]) };
}

function planOffline(
  seed: number,
  day: number,
  offlineRate: number,
  dayStart: number,
): Array<[number, number]> {
  const offlineDice = dice(mix32(seed ^ SALT_OFFLINE, day));
  if (offlineDice.next() >= offlineRate) return [];
  const start = Math.round(dayStart + offlineDice.between(0, 23) * HOUR_MS);
  return [[start, start + Math.round(offlineDice.between(10, 60) * MINUTE_MS)]];
}

// ---------------------------------------------------------------------------------------------
// The model

/** A type of equipment with its per-device constants (rated currents, cycle lengths) drawn once from the seed. */
interface Equipment {
  /** The plan of one local day (`day`: days since 1970-01-01). */
  build(ctx: DayContext, day: number): DayPlan;
}

function segmentPlan(
  ctx: DayContext,
  segments: Segment[],
  fault: FaultPlan | undefined,
  faultSpec: (code: string) => SegmentSpec,
): DayPlan {
  const plan = fault ? withFault(segments, fault.start, fault.end, faultSpec(fault.errorCode)) : segments;
  return {
    start: ctx.dayStart,
    end: ctx.dayEnd,
    offline: [],
    read: (t) => readSegment(findSegment(plan, t), t, ctx.seed),
  };
}

/** The hours a hot device works today, for placing its fault: the first 'off' stretch ends at switch-on. */
function workingSpan(segments: Segment[], dayEnd: number): [number, number] {
  const on = segments.find((segment) => segment.state !== 'off')?.start ?? dayEnd;
  const last = [...segments].reverse().find((segment) => segment.state !== 'off');
  return [on + 20 * MINUTE_MS, (last?.end ?? dayEnd) - 20 * MINUTE_MS];
}

function equipmentFor(profile: Required<DeviceProfile>, seed: number): Equipment {
  const type = profile.type;
  const device = dice(mix32(seed, SALT_DEVICE));
  const faultSpec =
    (idleAmps: number) =>
    (code: string): SegmentSpec => ({
      state: 'fault',
      errorCode: code,
      target: KITCHEN_TEMPERATURE,
      tauMin: 40,
      amps: standby(idleAmps * 0.5),
    });
  const hot = (build: (ctx: DayContext) => Segment[], idleAmps: number): Equipment => ({
    build(ctx, day) {
      const segments = build(ctx);
      const fault = planFault(type, seed, day, profile.failureRate, workingSpan(segments, ctx.dayEnd));
      return segmentPlan(ctx, segments, fault, faultSpec(idleAmps));
    },
  });

  switch (type) {
    case 'combi_oven':
    case 'convection_oven': {
      const combi = type === 'combi_oven';
      const heaterAmps = combi ? device.between(20, 30) : device.between(10, 18);
      const idleAmps = device.between(0.6, 1.8);
      const spec: OvenSpec = {
        programs: combi ? COMBI_PROGRAMS : CONVECTION_PROGRAMS,
        heaterAmps,
        idleAmps,
        washes: combi,
        reportsHumidity: combi,
      };
      return hot((ctx) => ovenDay(ctx, spec), idleAmps);
    }
    case 'fryer': {
      const heaterAmps = device.between(12, 20);
      const idleAmps = device.between(0.5, 1.2);
      return hot((ctx) => fryerDay(ctx, heaterAmps, idleAmps), idleAmps);
    }
    case 'dishwasher': {
      const boilerAmps = device.between(9, 15);
      const idleAmps = device.between(0.8, 1.6);
      return hot((ctx) => dishwasherDay(ctx, boilerAmps, idleAmps), idleAmps);
    }
    case 'blast_chiller': {
      const compressorAmps = device.between(6, 12);
      const idleAmps = device.between(0.4, 0.8);
      return hot((ctx) => blastChillerDay(ctx, compressorAmps, idleAmps), idleAmps);
    }
    case 'induction_hob': {
      const ratedAmps = device.between(16, 28);
      const idleAmps = device.between(0.2, 0.5);
      return hot((ctx) => hobDay(ctx, ratedAmps, idleAmps), idleAmps);
    }
    case 'other': {
      const ratedAmps = device.between(2, 6);
      const idleAmps = device.between(0.1, 0.4);
      return hot((ctx) => otherDay(ctx, ratedAmps, idleAmps), idleAmps);
    }
    case 'refrigerator':
    case 'freezer': {
      const freezer = type === 'freezer';
      const fridge: Refrigeration = freezer
        ? {
            low: -20,
            high: -16,
            cycleMs: device.between(30, 45) * MINUTE_MS,
            duty: 0.5,
            compressorAmps: device.between(2.6, 3.8),
            idleAmps: device.between(0.25, 0.4),
            doorChance: 0.15,
            doorWarming: 1.5,
          }
        : {
            low: 1.5,
            high: 4.5,
            cycleMs: device.between(20, 30) * MINUTE_MS,
            duty: 0.4,
            compressorAmps: device.between(1.8, 2.8),
            idleAmps: device.between(0.25, 0.4),
            doorChance: 0.4,
            doorWarming: 1.2,
          };
      return {
        build(ctx, day) {
          // A fault, then a pull-down of up to a few hours: both end well before midnight.
          const fault = planFault(type, seed, day, profile.failureRate, [
            ctx.dayStart + HOUR_MS,
            ctx.dayEnd - 8 * HOUR_MS,
          ]);
          return refrigerationDay(ctx, fridge, fault);
        },
      };
    }
  }
}

/** Fills in a profile's defaults and checks it; throws on an unknown type, time or zone. */
export function resolveProfile(profile: DeviceProfile): Required<DeviceProfile> {
  if (!DEVICE_TYPE_SLUGS.includes(profile.type)) throw new Error(`Unknown device type "${profile.type}"`);
  const shiftStart = profile.shiftStart ?? DEFAULT_SHIFT_START;
  if (parseTimeOfDay(shiftStart) === undefined) throw new Error(`Shift start "${shiftStart}" is not HH:MM`);
  const timeZone = profile.timeZone ?? DEFAULT_TIME_ZONE;
  if (!isTimeZone(timeZone)) throw new Error(`Unknown time zone "${timeZone}"`);
  const rate = (value: number | undefined, fallback: number, name: string) => {
    const result = value ?? fallback;
    if (!(result >= 0 && result <= 1)) throw new Error(`${name} must be between 0 and 1`);
    return result;
  };
  return {
    type: profile.type,
    controllerId: profile.controllerId,
    shiftStart,
    timeZone,
    seed: profile.seed ?? 1,
    failureRate: rate(profile.failureRate, DEFAULT_FAILURE_RATE, 'failureRate'),
    offlineRate: rate(profile.offlineRate, DEFAULT_OFFLINE_RATE, 'offlineRate'),
  };
}

const round = (value: number, digits: number) => {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
};
const clamp = (value: number, limits: { min: number; max: number }) =>
  Math.min(limits.max, Math.max(limits.min, value));

/** A reading cut down to what its device type reports, within the protocol's limits. */
function toSample(ts: number, reading: Reading, fields: ReportedFields): SimulatedSample {
  const sample: SimulatedSample = {
    ts,
    state: reading.state,
    current: round(clamp(reading.current, SAMPLE_LIMITS.current), 2),
  };
  if (fields.temperature)
    sample.temperature = round(clamp(reading.temperature, SAMPLE_LIMITS.temperature), 1);
  if (fields.door) sample.door_open = reading.doorOpen;
  if (reading.program) sample.program = reading.program;
  if (reading.state === 'fault' && reading.errorCode) sample.error_code = reading.errorCode;
  if (fields.coreTemperature && reading.state === 'cooking' && reading.coreTemperature !== undefined) {
    sample.core_temperature = round(clamp(reading.coreTemperature, SAMPLE_LIMITS.core_temperature), 1);
  }
  if (fields.humidity && reading.state !== 'off' && reading.humidity !== undefined) {
    sample.humidity = round(clamp(reading.humidity, SAMPLE_LIMITS.humidity), 0);
  }
  return sample;
}

/** Day plans kept per device: live runs need today's (and yesterday's around midnight). */
const PLAN_CACHE_SIZE = 4;

export function createDeviceModel(profile: DeviceProfile): DeviceModel {
  const resolved = resolveProfile(profile);
  const seed = mix32(resolved.seed >>> 0, hashText(resolved.controllerId));
  const shiftStartMin = parseTimeOfDay(resolved.shiftStart) ?? 8 * 60;
  const fields = REPORTED_FIELDS[resolved.type];
  const equipment = equipmentFor(resolved, seed);
  const plans = new Map<number, DayPlan>();
  let last: DayPlan | undefined;

  function planFor(ts: number): DayPlan {
    if (last && ts >= last.start && ts < last.end) return last;
    const day = localDayNumber(ts, resolved.timeZone);
    let plan = plans.get(day);
    if (!plan) {
      const dayStart = localToEpoch(day, 0, resolved.timeZone);
      const ctx: DayContext = {
        dice: dice(mix32(seed, day)),
        seed,
        dayStart,
        dayEnd: localToEpoch(day + 1, 0, resolved.timeZone),
        at: (minutes) => localToEpoch(day, minutes, resolved.timeZone),
        shiftStartMin,
      };
      plan = equipment.build(ctx, day);
      plan.offline = planOffline(seed, day, resolved.offlineRate, dayStart);
      if (plans.size >= PLAN_CACHE_SIZE) plans.delete(plans.keys().next().value as number);
      plans.set(day, plan);
    }
    last = plan;
    return plan;
  }

  return {
    controllerId: resolved.controllerId,
    type: resolved.type,
    fields,
    sampleAt(ts) {
      const time = Math.round(ts);
      const plan = planFor(time);
      if (plan.offline.some(([start, end]) => time >= start && time < end)) return undefined;
      return toSample(time, plan.read(time), fields);
    },
  };
}

function toModel(device: DeviceProfile | DeviceModel): DeviceModel {
  return 'sampleAt' in device ? device : createDeviceModel(device);
}

/**
 * Every sample of a device in `[from, to)`, one per `intervalMs` on a grid of multiples of the
 * interval (so a second back-fill of the same range repeats the same timestamps and the server
 * deduplicates them). Lazy: two weeks of a big fleet never sit in memory at once.
 */
export function* deviceSamples(
  device: DeviceProfile | DeviceModel,
  from: number,
  to: number,
  intervalMs = 60_000,
): Generator<SimulatedSample> {
  if (!(intervalMs >= 1)) throw new Error('intervalMs must be at least 1');
  const model = toModel(device);
  for (let ts = Math.ceil(from / intervalMs) * intervalMs; ts < to; ts += intervalMs) {
    const sample = model.sampleAt(ts);
    if (sample) yield sample;
  }
}

/** The sample of a device now (undefined during an offline spell). */
export function sampleNow(
  device: DeviceProfile | DeviceModel,
  now: number = Date.now(),
): SimulatedSample | undefined {
  return toModel(device).sampleAt(now);
}
