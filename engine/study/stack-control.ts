// What a study does to the bundled stacks, on the engine's Stacks: restart one with a value's
// settings (on the port its target's URL names), and put it back as the study found it.
import type { Stacks } from '../stacks/stacks.ts'
import type { StackControl } from './sweep.ts'

export function stackControl(stacks: Stacks): StackControl {
  return {
    snapshot: (name) => stacks.snapshot(name),
    apply: async (s) => {
      await stacks.down(s.name)
      await stacks.up(s.name, {
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
