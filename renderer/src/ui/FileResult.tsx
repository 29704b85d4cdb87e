// What an export or report produced, and the way to get at it: a download link in web mode (the
// file is on the server's machine), Open / Show in folder in the desktop app.
import { useState } from 'react'
import { useFiles } from '../api/context.tsx'
import { fileName } from '../api/files.ts'
import { Button } from './Common.tsx'

export function FileResult({ path, detail, testId }: { path: string; detail?: string; testId: string }) {
  const files = useFiles()
  const [error, setError] = useState<string | null>(null)
  const name = fileName(path)
  const run = (action: ((p: string) => Promise<void>) | null) => {
    if (!action) return
    setError(null)
    action(path).catch((err: unknown) => setError(err instanceof Error ? err.message : String(err)))
  }
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
      <div className="muted file-path" title={path}>
        {path}
      </div>
      {error ? (
        <div className="field-error" role="alert">
          {error}
        </div>
      ) : null}
    </div>
  )
}
