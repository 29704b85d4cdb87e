// A seeded pseudo-random generator: the same sequence for the same seed, for a randomized
// schedule's order (segments.ts), think-time pauses (engine/runner/think.ts) and the test noise of
// engine/testing/. In the config folder, the ground floor, so each of those can import it.

/** mulberry32: a 32-bit generator of numbers in [0, 1), enough for orders, pauses and noise. */
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
