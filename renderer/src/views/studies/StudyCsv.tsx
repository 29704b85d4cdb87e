// The whole study as one CSV: a row per swept value (or pair of values) and target, with the
// figures the study page shows and the target's own CPU, memory and database connections.
import { useState } from 'react'
import type { ExportResult } from '#engine/api/types.ts'
import { useAction, useApi } from '../../api/context.tsx'
import { count } from '../../lib/format.ts'
import { Button } from '../../ui/Primitives.tsx'
import { FileResult } from '../../ui/FileResult.tsx'

export function StudyCsv({ studyId }: { studyId: number }) {
  const api = useApi()
  const [result, setResult] = useState<ExportResult | null>(null)
  const csv = useAction(async () => setResult(await api.exports.studyCsv(studyId)))
  return (
    <div data-testid="study-csv">
      <Button busy={csv.busy} onClick={() => void csv.run()} data-testid="study-export-csv">
        CSV (one row per value and target)
      </Button>
      {csv.error ? (
        <div className="field-error" role="alert" data-testid="study-export-csv-error">
          {csv.error}
        </div>
      ) : null}
      {result?.path ? (
        <FileResult path={result.path} detail={`${count(result.rows)} rows`} testId="study-export-csv-file" />
      ) : null}
    </div>
  )
}
