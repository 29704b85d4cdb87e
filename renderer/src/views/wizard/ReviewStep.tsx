// Step 4: name and tags, pass/fail thresholds, the run in plain words (the report's words for its
// configuration), the config as YAML (the same document the CLI runs), save it as a template or
// load one, and Start. Its parts are in ./review/.
import { Banner } from '../../ui/Primitives.tsx'
import { stepOf, type Draft, type Patch, type StepId, type Validation } from './draft.ts'
import { TextAt } from './fields.tsx'
import { part } from './draftPart.ts'
import { ConfigYaml } from './review/ConfigYaml.tsx'
import { MachineLoad } from './review/MachineLoad.tsx'
import { RunInWords } from './review/RunInWords.tsx'
import { StartRun } from './review/StartRun.tsx'
import { Thresholds } from './review/Thresholds.tsx'

interface Props {
  draft: Draft
  patch: Patch
  setDraft: (d: Draft) => void
  validation: Validation
  goTo: (step: StepId) => void
}

/** Every message of the config, each a link to the step that shows it. */
function ReviewIssues({ list, goTo }: { list: Validation['list']; goTo: (step: StepId) => void }) {
  if (list.length === 0) return null
  return (
    <Banner kind="error" testId="review-issues">
      <p>Fix these before starting:</p>
      <ul>
        {list.map((i, n) => (
          <li key={n}>
            <button type="button" className="link" onClick={() => goTo(stepOf(i.field))}>
              {i.field || 'config'}
            </button>{' '}
            {i.message}
          </li>
        ))}
      </ul>
    </Banner>
  )
}

export function ReviewStep({ draft, patch, setDraft, validation, goTo }: Props) {
  // Review shows every message at once (not only those of steps left with Next).
  const root = part(draft, patch, validation.issues, '')
  return (
    <div data-testid="step-review" className="review">
      <div className="grid-2">
        <TextAt part={root} k="name" label="Run name" testId="review-name" />
        <TextAt
          part={root}
          k="tags"
          label="Tags (comma separated)"
          placeholder="round-1, jetty-vs-node"
          testId="review-tags"
        />
      </div>
      <Thresholds root={root} />
      <ReviewIssues list={validation.list} goTo={goTo} />
      {validation.config ? <RunInWords config={validation.config} /> : null}
      <ConfigYaml draft={draft} setDraft={setDraft} validation={validation} />
      <MachineLoad />
      <StartRun config={validation.config} goTo={goTo} />
    </div>
  )
}
