// The agent's clock against the coordination store's, NTP-style: of several round trips, the one
// with the smallest delay gives the offset (the store's clock minus ours, read at the midpoint),
// known to within half that delay. Agents then start segments at the store's instants, whatever
// their own clocks say.
import type { ClockOffset } from './protocol.ts'

export async function measureOffset(
  storeNow: () => Promise<number>,
  localNow: () => number,
  rounds = 8,
): Promise<ClockOffset> {
  let best: ClockOffset | null = null
  for (let i = 0; i < rounds; i++) {
    const sent = localNow()
    const at = await storeNow()
    const back = localNow()
    const delayMs = back - sent
    if (!best || delayMs < best.delayMs) best = { offsetMs: at - (sent + back) / 2, delayMs }
  }
  if (!best) throw new RangeError('measureOffset needs at least one round trip')
  return best
}
