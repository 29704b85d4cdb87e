// A target's URL and its Check: the engine sends one GET (it can see the status; a page's no-cors
// fetch could not) and says status and time, or why nothing answered.
import { useState } from 'react'
import type { ProbeResult } from '#engine/api/types.ts'
import { errorMessage, useApi } from '../../../api/context.tsx'
import { Button } from '../../../ui/Primitives.tsx'
import type { TargetDraft } from '../draft.ts'
import { TextAt } from '../fields.tsx'
import type { Part } from '../draftPart.ts'

type Check = { state: 'idle' | 'checking' } | { state: 'ok' | 'fail'; message: string }
type CheckOf = Check & { url: string }

/** The engine's probe answer in words: status and time, or why nothing answered. */
export function describeProbe(r: ProbeResult): Check {
  if (r.status !== null) {
    const text = `answered ${r.status} in ${r.latencyMs ?? '?'} ms`
    return r.ok ? { state: 'ok', message: text } : { state: 'fail', message: `${text}: not a success status` }
  }
  return { state: 'fail', message: `no answer: ${r.error ?? 'no reason given'}` }
}

function CheckResult({ check, id }: { check: Check; id: string }) {
  if (check.state !== 'ok' && check.state !== 'fail') return null
  return (
    <div
      className={check.state === 'ok' ? 'check-ok' : 'field-error'}
      role="status"
      data-testid={`${id}-check-result`}
      data-ok={check.state === 'ok' ? 'true' : 'false'}
    >
      {check.state === 'ok' ? '✓ ' : '✗ '}
      {check.message}
    </div>
  )
}

export function UrlCheck({
  target,
  id,
  scenario,
}: {
  target: Part<TargetDraft>
  id: string
  scenario: boolean
}) {
  const api = useApi()
  const [checked, setCheck] = useState<CheckOf>({ state: 'idle', url: '' })
  // An answer about a URL the user has since changed is not shown.
  const url = target.value.url.trim()
  const check: Check = checked.url === url ? checked : { state: 'idle' }
  const handleCheck = () => {
    setCheck({ state: 'checking', url })
    api.targets.probe(url, { insecure: target.value.insecure }).then(
      (r) => setCheck({ ...describeProbe(r), url }),
      (err: unknown) => setCheck({ state: 'fail', message: `could not check: ${errorMessage(err)}`, url }),
    )
  }
  return (
    <>
      <div className="url-row">
        <TextAt
          className="grow"
          part={target}
          k="url"
          label={scenario ? "Base URL (the steps' paths go to its host)" : 'URL'}
          type="url"
          placeholder="http://127.0.0.1:8080/path"
          testId={`${id}-url`}
        />
        <Button
          busy={check.state === 'checking'}
          disabled={url === '' || Boolean(target.at('url'))}
          onClick={handleCheck}
          data-testid={`${id}-check`}
        >
          Check
        </Button>
      </div>
      <CheckResult check={check} id={id} />
    </>
  )
}
