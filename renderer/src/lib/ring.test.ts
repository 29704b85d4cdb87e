import { describe, expect, it } from 'vitest'
import { Ring } from './ring.ts'

describe('Ring', () => {
  it('keeps the last `capacity` items in order and never grows', () => {
    const r = new Ring<number>(3)
    for (let i = 0; i < 10; i++) r.push(i)
    expect(r.toArray()).toEqual([7, 8, 9])
    expect(r.size).toBe(3)
    r.replaceLast(42)
    expect(r.last()).toBe(42)
    r.clear()
    expect(r.toArray()).toEqual([])
  })
})
