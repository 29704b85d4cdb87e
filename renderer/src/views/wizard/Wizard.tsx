// New run: Targets → Load → Monitoring → Review → Start. The draft survives navigating away
// (sessionStorage) and is validated on every change with the RunConfig schema, so each step shows
// its messages next to the fields and Start is possible only for a valid config. Next refuses a
// step with a problem: every message is marked on its field (or, if no field shows it, listed at
// the step's top by name) and focus moves to the first one. Start over asks first.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import { useApi } from '../../api/context.tsx'
import { Button } from '../../ui/Common.tsx'
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx'
import {
  defaultDraft,
  emptyTarget,
  hasValue,
  stepOf,
  toConfigInput,
  validate,
  type Draft,
  type Patch,
  type StepId,
} from './draft.ts'
import { fromConfig } from './fromConfig.ts'
import { TrackedIssues } from './issues.ts'
import { focusFirstProblem, StepIssues } from './StepIssues.tsx'
import { TargetsStep } from './TargetsStep.tsx'
import { LoadStep } from './LoadStep.tsx'
import { MonitorStep } from './MonitorStep.tsx'
import { ReviewStep } from './ReviewStep.tsx'

const STEPS: { id: StepId; label: string }[] = [
  { id: 'targets', label: 'Targets' },
  { id: 'load', label: 'Load' },
  { id: 'monitoring', label: 'Monitoring' },
  { id: 'review', label: 'Review' },
]
const KEY = 'cannonade.draft'

function loadDraft(): Draft {
  try {
    const raw = sessionStorage.getItem(KEY)
    if (raw) {
      const saved = JSON.parse(raw) as Partial<Draft>
      const base = defaultDraft()
      // Fields added later (scenario steps, stack, sweep) get their defaults.
      return {
        ...base,
        ...saved,
        targets: (saved.targets ?? base.targets).map((t) => ({ ...emptyTarget(), ...t })),
        sweep: { ...base.sweep, ...saved.sweep },
        agents: { ...base.agents, ...saved.agents },
      }
    }
  } catch {
    // A draft from an older version: start fresh.
  }
  return defaultDraft()
}

export default function Wizard({ query }: { query: URLSearchParams }) {
  const api = useApi()
  const [draft, setDraft] = useState<Draft>(loadDraft)
  const [step, setStep] = useState<StepId>('targets')
  const [fromRunError, setFromRunError] = useState<string | null>(null)
  const [loadedTemplate, setLoadedTemplate] = useState<string | null>(null)

  const patch: Patch = useCallback((change) => {
    setDraft((prev) => {
      const next = structuredClone(prev)
      change(next)
      return next
    })
  }, [])

  useEffect(() => {
    sessionStorage.setItem(KEY, JSON.stringify(draft))
  }, [draft])

  // Links into the wizard: #/new?url=…&name=… (from Stacks) and #/new?from=<runId> (run again).
  const url = query.get('url')
  const name = query.get('name')
  const from = query.get('from')
  const [seenUrl, setSeenUrl] = useState<string | null>(null)
  if (url && url !== seenUrl) {
    // Adjusting state while rendering (not in an effect): the new target shows in this render.
    setSeenUrl(url)
    setDraft((prev) => {
      if (prev.targets.some((t) => t.url === url)) return prev
      const next = structuredClone(prev)
      const blank = next.targets.findIndex((t) => t.url.trim() === '')
      const target = emptyTarget(name ?? `target-${next.targets.length + 1}`, url)
      if (blank >= 0) next.targets[blank] = target
      else next.targets.push(target)
      return next
    })
  }
  useEffect(() => {
    if (!from || !/^\d+$/.test(from)) return
    let live = true
    api.runs.get(Number(from)).then(
      (run) => live && setDraft({ ...fromConfig(run.config), name: `${run.config.name} (again)` }),
      (err: unknown) => live && setFromRunError(err instanceof Error ? err.message : String(err)),
    )
    return () => {
      live = false
    }
  }, [from, api])

  const validation = useMemo(() => validate(draft), [draft])
  // A field the user has not filled in yet is not an error yet: its message shows once the user
  // leaves the step with Next (or on Review, which lists everything).
  const [attempted, setAttempted] = useState<ReadonlySet<StepId>>(new Set())
  const visibleIssues = useMemo(() => {
    const doc = toConfigInput(draft)
    const shown = new Map<string, string>()
    for (const [field, message] of validation.issues) {
      if (attempted.has(stepOf(field)) || hasValue(doc, field)) shown.set(field, message)
    }
    return shown
  }, [validation, attempted, draft])
  // The step's fields ask `tracked` for their messages while they render; StepIssues renders after
  // them and lists what none asked for, at the step's top (a portal into `issuesSlot`).
  const tracked = new TrackedIssues(visibleIssues)
  const [issuesSlot, setIssuesSlot] = useState<HTMLDivElement | null>(null)
  const focusPending = useRef(false)
  const bodyRef = useRef<HTMLDivElement>(null)
  useLayoutEffect(() => {
    if (!focusPending.current) return
    focusPending.current = false
    focusFirstProblem(bodyRef.current)
  })
  const [confirmReset, setConfirmReset] = useState(false)
  const dirty = useMemo(() => JSON.stringify(draft) !== JSON.stringify(defaultDraft()), [draft])
  const reset = () => {
    setConfirmReset(false)
    setDraft(defaultDraft())
    setAttempted(new Set())
    setLoadedTemplate(null)
    setStep('targets')
  }
  const errorsByStep = useMemo(() => {
    const counts: Record<StepId, number> = { targets: 0, load: 0, monitoring: 0, review: 0 }
    for (const i of validation.list) counts[stepOf(i.field)]++
    return counts
  }, [validation])
  const index = STEPS.findIndex((s) => s.id === step)

  return (
    <section className="wizard" data-testid="wizard">
      <header className="view-head">
        <h1>New run</h1>
        <Button
          variant="ghost"
          // Nothing to lose: no question.
          onClick={() => (dirty ? setConfirmReset(true) : reset())}
          data-testid="wizard-reset"
          data-dirty={dirty ? 'true' : 'false'}
        >
          Start over
        </Button>
      </header>
      <ConfirmDialog
        open={confirmReset}
        title="Start over?"
        confirmLabel="Start over"
        onConfirm={reset}
        onCancel={() => setConfirmReset(false)}
        testId="wizard-reset-dialog"
      >
        This clears every field of this run: its targets, load, monitors and thresholds.
      </ConfirmDialog>
      {fromRunError ? (
        <div className="banner banner-error">Could not load that run: {fromRunError}</div>
      ) : null}
      <ol className="stepper" aria-label="Steps">
        {STEPS.map((s, i) => (
          <li key={s.id}>
            <button
              type="button"
              aria-current={s.id === step ? 'step' : undefined}
              onClick={() => setStep(s.id)}
              data-testid={`wizard-step-${s.id}`}
            >
              <span className="step-num">{i + 1}</span> {s.label}
              {errorsByStep[s.id] > 0 && i < index ? (
                <span className="step-errors" aria-label={`${errorsByStep[s.id]} problems`}>
                  {errorsByStep[s.id]}
                </span>
              ) : null}
            </button>
          </li>
        ))}
      </ol>
      <div className="step-body" ref={bodyRef}>
        <div ref={setIssuesSlot} />
        {step === 'targets' ? (
          <TargetsStep
            draft={draft}
            patch={patch}
            issues={tracked}
            loadedTemplate={loadedTemplate}
            onTemplate={(name, config) => {
              setDraft(fromConfig(config))
              setAttempted(new Set())
              setLoadedTemplate(name)
            }}
          />
        ) : null}
        {step === 'load' ? <LoadStep draft={draft} patch={patch} issues={tracked} /> : null}
        {step === 'monitoring' ? <MonitorStep draft={draft} patch={patch} issues={tracked} /> : null}
        {step === 'review' ? (
          <ReviewStep
            draft={draft}
            patch={patch}
            setDraft={setDraft}
            validation={validation}
            goTo={setStep}
          />
        ) : null}
        {step !== 'review' && issuesSlot ? (
          <StepIssues step={step} issues={visibleIssues} tracked={tracked} slot={issuesSlot} />
        ) : null}
      </div>
      <footer className="wizard-nav">
        <Button
          disabled={index === 0}
          onClick={() => setStep(STEPS[index - 1]?.id ?? 'targets')}
          data-testid="wizard-back"
        >
          Back
        </Button>
        {index < STEPS.length - 1 ? (
          <Button
            variant="primary"
            onClick={() => {
              setAttempted((a) => new Set([...a, step]))
              // A message of this step, or a question it asks (a monitor left on another server).
              const refused =
                validation.list.some((i) => stepOf(i.field) === step) ||
                bodyRef.current?.querySelector('[data-unanswered]') != null
              if (refused) focusPending.current = true
              else setStep(STEPS[index + 1]?.id ?? 'review')
            }}
            data-testid="wizard-next"
          >
            Next: {STEPS[index + 1]?.label}
          </Button>
        ) : null}
      </footer>
    </section>
  )
}
