// "Start from a template": the ready-made studies of resources/templates (through
// studies.templates). Picking one fills in the whole form; its
// targets point at the bundled stacks, which the user may keep or change.
import { useState } from 'react'
import type { RunConfig } from '#engine/config/schema.ts'
import { useApi, useAsync } from '../../api/context.tsx'
import { Link } from '../../app/router.tsx'
import { Banner, Button, Card } from '../../ui/Primitives.tsx'
import { SelectField } from '../../ui/Field.tsx'

export function TemplatePicker({
  onPick,
  loaded,
}: {
  onPick: (name: string, config: RunConfig) => void
  loaded: string | null
}) {
  const api = useApi()
  const templates = useAsync(() => api.studies.templates(), [api])
  const [id, setId] = useState('')
  const list = templates.data ?? []
  const chosen = list.find((t) => t.id === id)
  return (
    <Card title="Start from a template" testId="template-picker">
      <div className="template-picker">
        <SelectField
          label="Template"
          value={id}
          options={[
            { value: '', label: list.length ? 'choose a study to reproduce…' : 'loading…' },
            ...list.map((t) => ({ value: t.id, label: t.name })),
          ]}
          onChange={setId}
          testId="template-select"
        />
        <Button
          disabled={!chosen}
          onClick={() => chosen && onPick(chosen.name, chosen.config)}
          data-testid="template-load"
        >
          Fill in the form
        </Button>
      </div>
      {templates.error ? (
        <div className="field-error">Could not list templates: {templates.error}</div>
      ) : null}
      {chosen ? (
        <p className="template-description" data-testid="template-description">
          {chosen.description}
        </p>
      ) : null}
      {loaded ? (
        <Banner kind="info" testId="template-loaded">
          Loaded “{loaded}”: every step is filled in. Its targets point at the bundled stacks (
          <Link to="/stacks">launch them</Link>), or change the URLs below to your own servers.
        </Banner>
      ) : null}
    </Card>
  )
}
