// A seeded pseudo-random generator: the same sequence for the same seed, for think-time pauses
// (engine/runner/think.ts) and the synthetic test fixtures' noise (engine/testing/).

/** mulberry32: a 32-bit generator of numbers in [0, 1), enough for pauses and noise. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
