// What the coordination stores wait on between polls: a wait ends at its timeout or at the next
// wake-up (a write, a notification), whichever comes first.
export class Waiters {
  private readonly pending: (() => void)[] = []

  /** Resolves after `ms`, or sooner at the next wakeAll(). */
  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const pending = this.pending
      const timer = setTimeout(done, ms)
      function done() {
        clearTimeout(timer)
        const i = pending.indexOf(done)
        if (i >= 0) pending.splice(i, 1)
        resolve()
      }
      pending.push(done)
    })
  }

  wakeAll(): void {
    for (const w of this.pending.splice(0)) w()
  }
}
