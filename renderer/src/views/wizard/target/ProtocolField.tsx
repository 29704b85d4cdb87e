// How a target is spoken to: HTTP/1.1, HTTP/2 over TLS (h2) or HTTP/2 in cleartext (h2c), and for
// HTTP/2 its concurrent streams per connection. The schema's messages (h2 needs an https:// URL,
// h2c an http:// one, a scenario or think time needs one stream) show beside the field they name.
import { PROTOCOLS } from '#engine/config/schema.ts'
import { PROTOCOL_LABELS } from '#engine/metrics/units.ts'
import { chooseProtocol, type TargetDraft } from '../draft.ts'
import { NumberAt, SelectAt } from '../fields.tsx'
import type { Part } from '../draftPart.ts'

const OPTIONS = PROTOCOLS.map((p) => ({ value: p, label: PROTOCOL_LABELS[p] }))

export function ProtocolField({ target, id }: { target: Part<TargetDraft>; id: string }) {
  const h2 = target.value.protocol !== 'http1'
  return (
    <div className="grid-2">
      <SelectAt
        part={target}
        k="protocol"
        label="Protocol"
        options={OPTIONS}
        onChange={(p) => target.set((t) => chooseProtocol(t, p))}
        hint={
          <>
            h2 needs an <code>https://</code> URL (agreed by ALPN), h2c an <code>http://</code> one.
          </>
        }
        testId={`${id}-protocol`}
      />
      {h2 ? (
        <NumberAt
          part={target}
          k="streams"
          label="Streams per connection"
          min={1}
          step={1}
          hint="Requests in flight on each connection at once (connections × streams in all); the server's SETTINGS may lower it."
          testId={`${id}-streams`}
        />
      ) : null}
    </div>
  )
}
