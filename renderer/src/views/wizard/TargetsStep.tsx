// Step 1: what to load. A template, requests the user has (a HAR file, curl commands, an OpenAPI
// document: ./import/), URLs typed in, taken from a running stack, or the built-in demo target;
// each target's Check asks the engine whether it answers.
import type { StackStatus } from '#engine/api/types.ts'
import type { RunConfig } from '#engine/config/schema.ts'
import { useApi, useAsync } from '../../api/context.tsx'
import { Button } from '../../ui/Primitives.tsx'
import { useDemoUrl } from '../../ui/DemoButton.tsx'
import { defaultDraft, emptyTarget, type Draft, type Issues } from './draft.ts'
import { targetFromConfig } from './fromConfig.ts'
import { ScenarioImport } from './import/ScenarioImport.tsx'
import { TargetEditor } from './TargetEditor.tsx'
import { TemplatePicker } from './TemplatePicker.tsx'
import type { Patch } from './draft.ts'

function StackPicker({
  stacks,
  onPick,
}: {
  stacks: readonly StackStatus[]
  onPick: (name: string, url: string) => void
}) {
  const running = stacks.filter((s) => s.state === 'healthy' || s.state === 'native')
  if (running.length === 0) return null
  return (
    <label className="inline-label">
      From a running stack
      <select
        value=""
        onChange={(e) => {
          const s = running.find((x) => x.name === e.target.value)
          if (s) onPick(s.name, s.url)
        }}
        data-testid="targets-from-stack"
      >
        <option value="">choose…</option>
        {running.map((s) => (
          <option key={s.name} value={s.name}>
            {s.name} ({s.url})
          </option>
        ))}
      </select>
    </label>
  )
}

export function TargetsStep({
  draft,
  patch,
  issues,
  loadedTemplate,
  onTemplate,
}: {
  draft: Draft
  patch: Patch
  issues: Issues
  loadedTemplate: string | null
  onTemplate: (name: string, config: RunConfig) => void
}) {
  const api = useApi()
  const demoUrl = useDemoUrl()
  // Where the bundled stacks answer: for the stack picker, and to ask about a monitor left on a
  // stack the target's URL no longer goes to (./monitorFollow.ts).
  const stackStatus = useAsync(() => api.stacks.status(), [api])
  const stacks = stackStatus.data ?? []
  const add = (name: string, url: string) =>
    patch((d) => {
      const blank = d.targets.findIndex((t) => t.url.trim() === '')
      const unique = d.targets.some((t, i) => t.name === name && i !== blank)
        ? `${name}-${d.targets.length + 1}`
        : name
      if (blank >= 0)
        d.targets[blank] = {
          ...emptyTarget(unique, url),
          monitor: d.targets[blank]?.monitor ?? emptyTarget().monitor,
        }
      else d.targets.push(emptyTarget(unique, url))
    })
  return (
    <div data-testid="step-targets" data-stacks={stackStatus.loading ? 'loading' : 'ready'}>
      <TemplatePicker onPick={onTemplate} loaded={loadedTemplate} />
      <ScenarioImport
        onUse={(config) =>
          patch((d) => {
            // The imported targets replace the ones here; the load and the rest stay as set.
            d.targets = config.targets.map(targetFromConfig)
            if (d.name === defaultDraft().name) d.name = config.name
          })
        }
      />
      <p className="lead">
        The servers to compare. Each target gets the same load, one after another (or interleaved, set in the
        next step).
      </p>
      {issues.get('targets') ? (
        <div className="field-error" role="alert">
          targets {issues.get('targets')}
        </div>
      ) : null}
      {draft.targets.map((t, i) => (
        <TargetEditor
          key={i}
          target={t}
          index={i}
          patch={patch}
          issues={issues}
          canRemove={draft.targets.length > 1}
          stacks={stacks}
        />
      ))}
      <div className="actions">
        <Button
          onClick={() => patch((d) => void d.targets.push(emptyTarget(`target-${d.targets.length + 1}`)))}
          data-testid="targets-add"
        >
          Add target
        </Button>
        <Button
          disabled={!demoUrl}
          title={demoUrl ? demoUrl : 'This engine offers no demo target'}
          onClick={() => demoUrl && add('demo', demoUrl)}
          data-testid="targets-add-demo"
        >
          Add the demo target
        </Button>
        <StackPicker stacks={stacks} onPick={add} />
      </div>
    </div>
  )
}
