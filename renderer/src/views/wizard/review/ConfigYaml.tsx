// The config as YAML (the same document the CLI runs): saved as a template, or a template loaded
// in its place (validated and migrated by the engine, exactly as the CLI would).
import { useMemo, useRef, useState } from 'react'
import { parse as parseYaml, stringify } from 'yaml'
import { useApi } from '../../../api/context.tsx'
import { Button, Card } from '../../../ui/Primitives.tsx'
import { toConfigInput, type Draft, type Validation } from '../draft.ts'
import { fromConfig } from '../fromConfig.ts'

function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'run'
  )
}

function download(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const a = document.createElement('a')
  a.href = url
  a.download = name
  a.click()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}

function useTemplateLoad(setDraft: (d: Draft) => void) {
  const api = useApi()
  const [error, setError] = useState<string | null>(null)
  const load = async (file: File) => {
    setError(null)
    try {
      const raw: unknown = parseYaml(await file.text())
      const result = await api.runs.validate(raw)
      if (!result.ok || !result.config) {
        setError(result.issues.map((i) => (i.field ? `${i.field}: ${i.message}` : i.message)).join('; '))
        return
      }
      setDraft(fromConfig(result.config))
    } catch (err) {
      setError(`${file.name}: ${err instanceof Error ? err.message : String(err)}`)
    }
  }
  return { load, error }
}

export function ConfigYaml({
  draft,
  setDraft,
  validation,
}: {
  draft: Draft
  setDraft: (d: Draft) => void
  validation: Validation
}) {
  const fileRef = useRef<HTMLInputElement>(null)
  const template = useTemplateLoad(setDraft)
  const yaml = useMemo(
    () => stringify(validation.config ?? toConfigInput(draft), { lineWidth: 0 }),
    [validation.config, draft],
  )
  const actions = (
    <>
      <Button
        onClick={() => download(`${slug(draft.name)}.cannonade.yaml`, yaml, 'application/yaml')}
        data-testid="review-save-template"
      >
        Save as template
      </Button>
      <Button onClick={() => fileRef.current?.click()} data-testid="review-load-template">
        Load template…
      </Button>
      <input
        ref={fileRef}
        type="file"
        accept=".yaml,.yml,.json"
        hidden
        data-testid="review-template-file"
        onChange={(e) => {
          const file = e.target.files?.[0]
          if (file) void template.load(file)
          e.target.value = ''
        }}
      />
    </>
  )
  return (
    <Card title="Run config (YAML)" testId="review-yaml-card" actions={actions}>
      {template.error ? (
        <div className="field-error" role="alert">
          {template.error}
        </div>
      ) : null}
      <pre className="yaml" data-testid="review-yaml" tabIndex={0}>
        {yaml}
      </pre>
      <p className="muted">
        Run it from a terminal too: <code>cannonade run {slug(draft.name)}.cannonade.yaml</code>
      </p>
    </Card>
  )
}
