// One target in the Targets step: name, URL (checked by the engine's probe: status and time, or
// the reason in words), the statuses that count as answered, the protocol (and HTTP/2's streams),
// method, headers and body, or a scenario of steps; the stack it runs on when it came from a
// template. Its parts are in ./target/.
import { Button, Card } from '../../ui/Primitives.tsx'
import type { Issues, Patch, TargetDraft } from './draft.ts'
import { CheckAt, SelectAt, TextAt } from './fields.tsx'
import { MonitorQuestionBox } from './MonitorQuestion.tsx'
import type { StackPlace } from './monitorFollow.ts'
import { part } from './draftPart.ts'
import { ScenarioEditor } from './ScenarioEditor.tsx'
import { firstStepFor, METHODS } from './scenarioDraft.ts'
import { ExpectField } from './target/ExpectField.tsx'
import { ProtocolField } from './target/ProtocolField.tsx'
import { RequestDetails } from './target/RequestDetails.tsx'
import { SecretsNote } from './target/SecretsNote.tsx'
import { StackNote } from './target/StackNote.tsx'
import { UrlCheck } from './target/UrlCheck.tsx'

const METHOD_OPTIONS = METHODS.map((m) => ({ value: m, label: m }))

export function TargetEditor({
  target: value,
  index,
  patch,
  issues,
  canRemove,
  stacks,
}: {
  target: TargetDraft
  index: number
  patch: Patch
  issues: Issues
  canRemove: boolean
  stacks: readonly StackPlace[]
}) {
  const set = (change: (t: TargetDraft) => void) =>
    patch((d) => {
      const t = d.targets[index]
      if (t) change(t)
    })
  const target = part(value, set, issues, `targets.${index}`)
  const id = `target-${index}`
  const scenario = value.steps !== null
  const remove = (
    <Button
      variant="ghost"
      onClick={() => patch((d) => void d.targets.splice(index, 1))}
      data-testid={`${id}-remove`}
      aria-label={`Remove target ${index + 1}`}
    >
      Remove
    </Button>
  )
  return (
    <Card testId={id} title={`Target ${index + 1}`} actions={canRemove ? remove : null}>
      <div className="grid-2">
        <TextAt part={target} k="name" label="Name" testId={`${id}-name`} />
        {scenario ? (
          <p className="muted">A scenario: each step has its own method and path.</p>
        ) : (
          <SelectAt
            part={target}
            k="method"
            label="Method"
            options={METHOD_OPTIONS}
            testId={`${id}-method`}
          />
        )}
      </div>
      <UrlCheck target={target} id={id} scenario={scenario} />
      <ExpectField target={target} id={id} />
      <ProtocolField target={target} id={id} />
      <MonitorQuestionBox target={value} index={index} stacks={stacks} set={set} />
      {value.url.startsWith('https:') ? (
        <>
          <CheckAt
            part={target}
            k="insecure"
            label="Accept a self-signed certificate"
            testId={`${id}-insecure`}
          />
          <CheckAt
            part={target}
            k="tlsResume"
            label="Resume TLS sessions (a new connection skips the full handshake)"
            testId={`${id}-tls-resume`}
          />
        </>
      ) : null}
      <StackNote target={target} id={id} />
      <SecretsNote target={target} id={id} />
      {scenario ? (
        <ScenarioEditor target={value} index={index} set={set} issues={issues} />
      ) : (
        <>
          <RequestDetails target={target} id={id} />
          <Button
            variant="ghost"
            onClick={() => set((t) => void (t.steps = [firstStepFor(t.url)]))}
            data-testid={`${id}-scenario-on`}
          >
            Make it a scenario (a sequence of requests)…
          </Button>
        </>
      )}
    </Card>
  )
}
