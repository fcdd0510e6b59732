/**
 * Seeded randomness. Everything the simulator invents comes from here, so the same seed always
 * gives the same fleet history (tests, screenshots and benchmarks compare runs).
 */

/** Mulberry32: a tiny, fast PRNG; good enough for plausible noise, not for cryptography. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Mixes two 32-bit numbers into one (murmur3's finaliser): the seed of a day, of a sample… */
export function mix32(a: number, b: number): number {
  let h = (a ^ Math.imul(b | 0, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A 32-bit hash of a text (FNV-1a): turns a controller id into a seed. */
export function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * A uniform number in [0, 1) that depends only on (seed, time, salt): the noise of one sample.
 * Being a pure function of time, a sample is the same whichever interval it was asked at.
 */
export function noiseAt(seed: number, ts: number, salt: number): number {
  const low = ts >>> 0;
  const high = Math.floor(ts / 4294967296);
  return mix32(mix32(mix32(seed, low), high), salt) / 4294967296;
}

/** Helpers over a PRNG, for building day plans that read like a recipe. */
export interface Dice {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [min, max). */
  between(min: number, max: number): number;
  /** Integer in [min, max]. */
  int(min: number, max: number): number;
  /** True with the given probability. */
  chance(probability: number): boolean;
  pick<T>(list: readonly T[]): T;
}

export function dice(seed: number): Dice {
  const next = mulberry32(seed);
  return {
    next,
    between: (min, max) => min + next() * (max - min),
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (probability) => next() < probability,
    pick: <T>(list: readonly T[]): T => {
      if (list.length === 0) throw new Error('pick from an empty list');
      return list[Math.floor(next() * list.length)] as T;
    },
  };
}
