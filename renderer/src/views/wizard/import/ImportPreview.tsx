// What an import made, before it replaces the targets: each target's steps (method, path, name),
// the secrets it left out and the variables a run reads them from, and its notes.
import type { ImportedScenario } from '#engine/api/types.ts'
import { Button } from '../../../ui/Primitives.tsx'

export function ImportPreview({ made, onUse }: { made: ImportedScenario; onUse: () => void }) {
  const steps = made.config.targets.reduce((n, t) => n + (t.steps?.length ?? 0), 0)
  return (
    <div className="import-preview" data-testid="import-preview">
      {made.config.targets.map((t, i) => (
        <table className="table" key={t.name} data-testid={`import-target-${i}`}>
          <caption>
            {t.name} <span className="muted">{t.url}</span>
          </caption>
          <tbody>
            {(t.steps ?? []).map((s, j) => (
              <tr key={s.name} data-testid={`import-step-${i}-${j}`}>
                <td className="mono">{s.method}</td>
                <td className="mono">{s.path}</td>
                <td className="muted">{s.name}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}
      {made.secrets.length ? (
        <p data-testid="import-secrets">
          Left out of the config:{' '}
          {made.secrets.map((s, i) => (
            <span key={`${s.target}-${s.variable}`}>
              {i > 0 ? ', ' : null}
              <code>{'${' + s.variable + '}'}</code> from <code>{s.env}</code>
            </span>
          ))}
          . Set them in the environment of the engine (the shell of <code>cannonade serve</code>, or the one
          that started the app), or write the values in the steps.
        </p>
      ) : null}
      {made.notes.length ? (
        <ul className="muted" data-testid="import-notes">
          {made.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
      <Button variant="primary" onClick={onUse} data-testid="import-use">
        {steps === 1 ? 'Use this step' : `Use these ${steps} steps`}
        {made.config.targets.length > 1 ? ` (${made.config.targets.length} targets)` : ''}
      </Button>
    </div>
  )
}
