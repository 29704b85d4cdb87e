// What a study does to the bundled stacks, on the engine's Stacks: restart one with a value's
// settings (on the port its target's URL names), and put it back as the study found it. A restart
// takes the stack down first (its database volume kept): `up` on a running compose project
// recreates what it sees changed, and an app recreated while its database was being recreated
// too could not resolve it and never became healthy.
import type { Stacks } from '../stacks/stacks.ts'
import type { StackControl } from './sweep.ts'

export function stackControl(stacks: Stacks): StackControl {
  return {
    snapshot: (name) => stacks.snapshot(name),
    apply: async (s) => {
      const running = (await stacks.snapshot(s.name)).running
      if (running) await stacks.down(s.name)
      await stacks.up(s.name, {
        // Built when the study found it down; a running stack's images are current.
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
