// What an export or report produced, and the way to get at it: a download link in web mode (the
// file is on the server's machine), Open / Show in folder / Save as… in the desktop app.
import { useState } from 'react'
import { useFiles } from '../api/context.tsx'
import { fileName } from '../api/files.ts'
import { Button } from './Primitives.tsx'

export function FileResult({ path, detail, testId }: { path: string; detail?: string; testId: string }) {
  const files = useFiles()
  const [error, setError] = useState<string | null>(null)
  const [savedTo, setSavedTo] = useState<string | null>(null)
  const name = fileName(path)
  const run = (action: ((p: string) => Promise<unknown>) | null, then?: (result: unknown) => void) => {
    if (!action) return
    setError(null)
    action(path).then(then, (err: unknown) => setError(err instanceof Error ? err.message : String(err)))
  }
  const saveAs = files.saveAs
  return (
    <div className="file-result" role="status" data-testid={testId} data-path={path}>
      <span className="check-ok">✓ {name}</span>
      {detail ? <span className="muted"> {detail}</span> : null}{' '}
      {files.downloadUrl ? (
        <a
          className="btn btn-secondary"
          href={files.downloadUrl(path)}
          download={name}
          data-testid={`${testId}-download`}
        >
          Download
        </a>
      ) : null}
      {files.open ? (
        <Button onClick={() => run(files.open)} data-testid={`${testId}-open`}>
          Open
        </Button>
      ) : null}
      {files.reveal ? (
        <Button variant="ghost" onClick={() => run(files.reveal)} data-testid={`${testId}-reveal`}>
          Show in folder
        </Button>
      ) : null}
      {saveAs ? (
        <Button
          variant="ghost"
          onClick={() =>
            run(saveAs, (copy) => {
              if (typeof copy === 'string') setSavedTo(copy)
            })
          }
          data-testid={`${testId}-save-as`}
        >
          Save as…
        </Button>
      ) : null}
      <div className="muted file-path" title={path}>
        {path}
      </div>
      {savedTo ? (
        <div className="muted" data-testid={`${testId}-saved`} data-path={savedTo}>
          Saved a copy to {savedTo}
        </div>
      ) : null}
      {error ? (
        <div className="field-error" role="alert">
          {error}
        </div>
      ) : null}
    </div>
  )
}
