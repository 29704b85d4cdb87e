// What the fields of one monitor kind get (./kinds.ts lists a component per kind).
import type { MonitorDraft } from '../draft.ts'
import type { Part } from '../part.ts'

export interface MonitorFieldsProps {
  /** The target's edited monitor; its messages are keyed under the config's monitor path. */
  monitor: Part<MonitorDraft>
  /** The data-testid prefix of the monitor's fields (`monitor-0`). */
  id: string
}
