// The secrets an import left out of a target's steps: each `${name}` and the CANNONADE_SECRET_…
// variable a run reads it from (engine/config/secret-vars.ts). A run without it is refused.
import type { TargetDraft } from '../draft.ts'
import type { Part } from '../draftPart.ts'

export function SecretsNote({ target, id }: { target: Part<TargetDraft>; id: string }) {
  const secrets = Object.entries(target.value.secrets ?? {})
  if (secrets.length === 0) return null
  return (
    <p className="muted" data-testid={`${id}-secrets`}>
      Read when the run starts, never kept:{' '}
      {secrets.map(([name, env], i) => (
        <span key={name}>
          {i > 0 ? ', ' : null}
          <code>{'${' + name + '}'}</code> from <code>{env}</code>
        </span>
      ))}
      .
    </p>
  )
}
