// What the fields of one profile kind get (./kinds.ts lists a component per kind).
import type { Draft } from '../draft.ts'
import type { Part } from '../draftPart.ts'

export type ProfileDraft = Draft['load']['profile']

export interface ProfileFieldsProps {
  /** The draft's profile (every kind's values); its messages are keyed under `load.profile`. */
  profile: Part<ProfileDraft>
  /** The run's connections: the placeholder of a kind's own count, and a new stage's. */
  connections: Draft['load']['connections']
}
