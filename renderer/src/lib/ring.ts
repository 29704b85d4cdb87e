/** A fixed-capacity buffer: pushing past capacity drops the oldest item. Never grows. */
export class Ring<T> {
  private readonly buf: (T | undefined)[]
  private start = 0
  private count = 0
  readonly capacity: number

  constructor(capacity: number) {
    this.capacity = capacity
    this.buf = new Array<T | undefined>(capacity)
  }

  get size(): number {
    return this.count
  }

  push(item: T): void {
    const end = (this.start + this.count) % this.capacity
    this.buf[end] = item
    if (this.count < this.capacity) this.count++
    else this.start = (this.start + 1) % this.capacity
  }

  last(): T | undefined {
    return this.count === 0 ? undefined : this.buf[(this.start + this.count - 1) % this.capacity]
  }

  replaceLast(item: T): void {
    if (this.count === 0) this.push(item)
    else this.buf[(this.start + this.count - 1) % this.capacity] = item
  }

  toArray(): T[] {
    const out: T[] = new Array<T>(this.count)
    for (let i = 0; i < this.count; i++) out[i] = this.buf[(this.start + i) % this.capacity] as T
    return out
  }

  clear(): void {
    this.buf.fill(undefined)
    this.start = 0
    this.count = 0
  }
}
