// New run: Targets → Load → Monitoring → Review → Start. The draft survives navigating away
// (./useDraft.ts) and is validated on every change with the RunConfig schema, so each step shows
// its messages next to the fields and Start is possible only for a valid config. Next refuses a
// step with a problem: every message is marked on its field (or, if no field shows it, listed at
// the step's top by name) and focus moves to the first one. Start over asks first.
import { useLayoutEffect, useMemo, useRef, useState } from 'react'
import { Button } from '../../ui/Primitives.tsx'
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx'
import { defaultDraft, hasValue, stepOf, toConfigInput, validate, type Draft, type StepId } from './draft.ts'
import { fromConfig } from './fromConfig.ts'
import { TrackedIssues } from './issues.ts'
import { LoadStep } from './LoadStep.tsx'
import { MonitorStep } from './MonitorStep.tsx'
import { ReviewStep } from './ReviewStep.tsx'
import { focusFirstProblem, StepIssues } from './StepIssues.tsx'
import { Stepper, STEPS } from './Stepper.tsx'
import { TargetsStep } from './TargetsStep.tsx'
import { useDraft } from './useDraft.ts'

/**
 * The messages a step shows: a field the user has not filled in yet is not an error yet; its
 * message shows once the user leaves the step with Next (or on Review, which lists everything).
 */
function useVisibleIssues(draft: Draft, attempted: ReadonlySet<StepId>) {
  const validation = useMemo(() => validate(draft), [draft])
  const visible = useMemo(() => {
    const doc = toConfigInput(draft)
    const shown = new Map<string, string>()
    for (const [field, message] of validation.issues) {
      if (attempted.has(stepOf(field)) || hasValue(doc, field)) shown.set(field, message)
    }
    return shown
  }, [validation, attempted, draft])
  const errorsByStep = useMemo(() => {
    const counts: Record<StepId, number> = { targets: 0, load: 0, monitoring: 0, review: 0 }
    for (const i of validation.list) counts[stepOf(i.field)]++
    return counts
  }, [validation])
  return { validation, visible, errorsByStep }
}

function ResetButton({ draft, onReset }: { draft: Draft; onReset: () => void }) {
  const [confirm, setConfirm] = useState(false)
  const dirty = useMemo(() => JSON.stringify(draft) !== JSON.stringify(defaultDraft()), [draft])
  const reset = () => {
    setConfirm(false)
    onReset()
  }
  return (
    <>
      <Button
        variant="ghost"
        // Nothing to lose: no question.
        onClick={() => (dirty ? setConfirm(true) : reset())}
        data-testid="wizard-reset"
        data-dirty={dirty ? 'true' : 'false'}
      >
        Start over
      </Button>
      <ConfirmDialog
        open={confirm}
        title="Start over?"
        confirmLabel="Start over"
        onConfirm={reset}
        onCancel={() => setConfirm(false)}
        testId="wizard-reset-dialog"
      >
        This clears every field of this run: its targets, load, monitors and thresholds.
      </ConfirmDialog>
    </>
  )
}

function WizardNav({ index, onBack, onNext }: { index: number; onBack: () => void; onNext: () => void }) {
  return (
    <footer className="wizard-nav">
      <Button disabled={index === 0} onClick={onBack} data-testid="wizard-back">
        Back
      </Button>
      {index < STEPS.length - 1 ? (
        <Button variant="primary" onClick={onNext} data-testid="wizard-next">
          Next: {STEPS[index + 1]?.label}
        </Button>
      ) : null}
    </footer>
  )
}

export default function Wizard({ query }: { query: URLSearchParams }) {
  const { draft, setDraft, patch, fromRunError } = useDraft(query)
  const [step, setStep] = useState<StepId>('targets')
  const [loadedTemplate, setLoadedTemplate] = useState<string | null>(null)
  const [attempted, setAttempted] = useState<ReadonlySet<StepId>>(new Set())
  const { validation, visible, errorsByStep } = useVisibleIssues(draft, attempted)
  // The step's fields ask `tracked` for their messages while they render; StepIssues renders after
  // them and lists what none asked for, at the step's top (a portal into `issuesSlot`).
  const tracked = new TrackedIssues(visible)
  const [issuesSlot, setIssuesSlot] = useState<HTMLDivElement | null>(null)
  const focusPending = useRef(false)
  const bodyRef = useRef<HTMLDivElement>(null)
  useLayoutEffect(() => {
    if (!focusPending.current) return
    focusPending.current = false
    focusFirstProblem(bodyRef.current)
  })
  const reset = () => {
    setDraft(defaultDraft())
    setAttempted(new Set())
    setLoadedTemplate(null)
    setStep('targets')
  }
  const index = STEPS.findIndex((s) => s.id === step)
  const handleNext = () => {
    setAttempted((a) => new Set([...a, step]))
    // A message of this step, or a question it asks (a monitor left on another server).
    const refused =
      validation.list.some((i) => stepOf(i.field) === step) ||
      bodyRef.current?.querySelector('[data-unanswered]') != null
    if (refused) focusPending.current = true
    else setStep(STEPS[index + 1]?.id ?? 'review')
  }
  const steps = { draft, patch, issues: tracked }
  return (
    <section className="wizard" data-testid="wizard">
      <header className="view-head">
        <h1>New run</h1>
        <ResetButton draft={draft} onReset={reset} />
      </header>
      {fromRunError ? (
        <div className="banner banner-error">Could not load that run: {fromRunError}</div>
      ) : null}
      <Stepper step={step} errorsByStep={errorsByStep} onStep={setStep} />
      <div className="step-body" ref={bodyRef}>
        <div ref={setIssuesSlot} />
        {step === 'targets' ? (
          <TargetsStep
            {...steps}
            loadedTemplate={loadedTemplate}
            onTemplate={(name, config) => {
              setDraft(fromConfig(config))
              setAttempted(new Set())
              setLoadedTemplate(name)
            }}
          />
        ) : null}
        {step === 'load' ? <LoadStep {...steps} /> : null}
        {step === 'monitoring' ? <MonitorStep {...steps} /> : null}
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
          <StepIssues step={step} issues={visible} tracked={tracked} slot={issuesSlot} />
        ) : null}
      </div>
      <WizardNav
        index={index}
        onBack={() => setStep(STEPS[index - 1]?.id ?? 'targets')}
        onNext={handleNext}
      />
    </section>
  )
}
