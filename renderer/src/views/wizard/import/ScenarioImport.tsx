// "Start from requests you have": a HAR file, curl commands (a browser's "Copy as cURL") or an
// OpenAPI 3 document, as a file or pasted, made into scenario steps by the engine (scenarios:import,
// engine/import/) and shown before they replace the targets.
import { useState } from 'react'
import type { ImportedScenario, ImportKind } from '#engine/api/types.ts'
import type { RunConfig } from '#engine/config/schema.ts'
import { useApi } from '../../../api/context.tsx'
import { Banner, Button, Card } from '../../../ui/Primitives.tsx'
import { CheckboxField, SelectField, TextField } from '../../../ui/Field.tsx'
import { ImportPreview } from './ImportPreview.tsx'
import { guessKind, slimHar } from './source.ts'

const KINDS: { value: ImportKind; label: string }[] = [
  { value: 'har', label: 'A HAR file (a browser\'s network panel: "Save all as HAR")' },
  { value: 'curl', label: 'curl commands ("Copy as cURL" or "Copy all as cURL", bash)' },
  { value: 'openapi', label: 'An OpenAPI 3 document (JSON or YAML)' },
]

interface Source {
  kind: ImportKind
  text: string
  fileName: string | null
  base: string
  keepStatic: boolean
  keepConditional: boolean
  keepThirdParty: boolean
}

function SourceFields({ source, set }: { source: Source; set: (s: Partial<Source>) => void }) {
  const readFile = async (file: File | undefined) => {
    if (!file) return
    const text = await file.text()
    set({ text, fileName: file.name, kind: guessKind(text, file.name) ?? source.kind })
  }
  return (
    <>
      <SelectField
        label="What you have"
        value={source.kind}
        options={KINDS}
        onChange={(kind) => set({ kind })}
        testId="import-kind"
      />
      <label className="field">
        A file
        <input
          type="file"
          accept=".har,.json,.yaml,.yml,.txt,.sh"
          data-testid="import-file"
          onChange={(e) => void readFile(e.target.files?.[0])}
        />
      </label>
      <label className="field">
        or the text itself
        <textarea
          rows={6}
          value={source.text}
          spellCheck={false}
          placeholder="curl 'https://…' -H 'Accept: application/json'"
          onChange={(e) =>
            set({
              text: e.target.value,
              fileName: null,
              kind: guessKind(e.target.value, null) ?? source.kind,
            })
          }
          data-testid="import-text"
        />
      </label>
      {source.kind === 'openapi' ? (
        <TextField
          label="Where the API runs (its paths are appended)"
          value={source.base}
          onChange={(base) => set({ base })}
          placeholder="http://127.0.0.1:8082"
          testId="import-base"
        />
      ) : null}
      {source.kind === 'har' ? (
        <div className="grid-2">
          <CheckboxField
            label="Keep scripts, style sheets, images and fonts"
            checked={source.keepStatic}
            onChange={(keepStatic) => set({ keepStatic })}
            testId="import-keep-static"
          />
          <CheckboxField
            label="Keep other sites' requests (a target per site)"
            checked={source.keepThirdParty}
            onChange={(keepThirdParty) => set({ keepThirdParty })}
            testId="import-keep-third-party"
          />
          <CheckboxField
            label="Keep conditional headers (If-None-Match, If-Modified-Since: the server answers 304)"
            checked={source.keepConditional}
            onChange={(keepConditional) => set({ keepConditional })}
            testId="import-keep-conditional"
          />
        </div>
      ) : null}
    </>
  )
}

export function ScenarioImport({ onUse }: { onUse: (config: RunConfig) => void }) {
  const api = useApi()
  const [source, setSource] = useState<Source>({
    kind: 'curl',
    text: '',
    fileName: null,
    base: '',
    keepStatic: false,
    keepThirdParty: false,
    keepConditional: false,
  })
  const [made, setMade] = useState<ImportedScenario | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [used, setUsed] = useState<string | null>(null)
  const set = (change: Partial<Source>) => {
    setSource((s) => ({ ...s, ...change }))
    setMade(null)
    setUsed(null)
  }
  const run = async () => {
    setBusy(true)
    setError(null)
    try {
      const s = source
      setMade(
        await api.scenarios.import({
          kind: s.kind,
          text: s.kind === 'har' ? slimHar(s.text) : s.text,
          ...(s.kind === 'openapi' && s.base.trim() ? { base: s.base.trim() } : {}),
          ...(s.kind === 'har'
            ? {
                keepStatic: s.keepStatic,
                keepThirdParty: s.keepThirdParty,
                keepConditional: s.keepConditional,
              }
            : {}),
          ...(s.fileName ? { source: s.fileName } : {}),
        }),
      )
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    } finally {
      setBusy(false)
    }
  }
  const use = () => {
    if (!made) return
    onUse(made.config)
    setUsed(made.config.name)
    setMade(null)
  }
  return (
    <Card title="Start from requests you have" testId="import">
      <SourceFields source={source} set={set} />
      <Button
        busy={busy}
        disabled={source.text.trim() === ''}
        onClick={() => void run()}
        data-testid="import-run"
      >
        Make steps
      </Button>
      {error ? (
        <Banner kind="error" testId="import-error">
          {error}
        </Banner>
      ) : null}
      {made ? <ImportPreview made={made} onUse={use} /> : null}
      {used ? (
        <Banner kind="success" testId="import-used">
          The targets below are now “{used}”: check their steps, then go on.
        </Banner>
      ) : null}
    </Card>
  )
}
