// The load shape: one editor per profile kind (./profile/kinds.ts). Values of every kind are kept
// in the draft, so switching kinds back and forth loses nothing.
import type { Draft, Issues, Patch } from './draft.ts'
import { CheckAt, NumberAt, SelectAt } from './fields.tsx'
import { child, draftPart } from './draftPart.ts'
import { PROFILE_KIND_OPTIONS, PROFILE_KINDS } from './profile/kinds.ts'

export function ProfileEditor({ draft, patch, issues }: { draft: Draft; patch: Patch; issues: Issues }) {
  const load = child(draftPart(draft, patch, issues), 'load')
  const profile = child(load, 'profile')
  const kind = profile.value.kind
  const { Fields } = PROFILE_KINDS[kind]
  return (
    <fieldset className="profile" data-testid="profile-editor">
      <legend>Profile</legend>
      <SelectAt
        part={profile}
        k="kind"
        label="Shape"
        options={PROFILE_KIND_OPTIONS}
        error={profile.at()}
        testId="profile-kind"
      />
      {kind === 'constant' ? <p className="muted">All connections for the whole window.</p> : null}
      {kind === 'constant' ? (
        <CheckAt
          part={load}
          k="warmupAuto"
          label="Find the warm-up in each segment (load.warmup: auto)"
          hint="Each target and round is measured from where its per-second throughput and p50 reach their level (at most half its window); one that never settles is marked."
          testId="load-warmup-auto"
        />
      ) : null}
      {kind !== 'phases' && !(kind === 'constant' && load.value.warmupAuto) ? (
        <NumberAt
          part={load}
          k="warmupSeconds"
          label="Warm-up (seconds before the profile)"
          min={0}
          hint="At the run's connections, recorded and shown, but left out of the summary, the thresholds and comparisons."
          testId="load-warmup"
        />
      ) : null}
      {Fields ? <Fields profile={profile} connections={load.value.connections} /> : null}
    </fieldset>
  )
}
