// What a study does to the bundled stacks, on the engine's Stacks: restart one with a value's
// settings (on the port its target's URL names), and put it back as the study found it. `up` on a
// running compose project recreates only what changed (the app with its new environment; the
// database keeps running), so a restart costs the app's start, not the whole stack's.
import type { Stacks } from '../stacks/stacks.ts'
import type { StackControl } from './sweep.ts'

export function stackControl(stacks: Stacks): StackControl {
  return {
    snapshot: (name) => stacks.snapshot(name),
    apply: async (s) => {
      const running = (await stacks.snapshot(s.name)).running
      await stacks.up(s.name, {
        build: !running,
        native: s.native,
        env: s.env,
        replicas: s.replicas,
        ...(s.port !== null ? { port: s.port } : {}),
      })
    },
    restore: async (snap) => {
      await stacks.down(snap.name)
      if (snap.running)
        await stacks.up(snap.name, {
          native: snap.native,
          env: snap.env,
          replicas: snap.replicas,
          port: snap.port,
        })
    },
  }
}
