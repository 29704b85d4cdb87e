// One history row: select for comparison, open, edit tags, delete (with an inline confirmation).
import { useState } from 'react'
import type { RunListItem, StudyListItem } from '#engine/api/types.ts'
import { useAction, useApi } from '../../api/context.tsx'
import { Link } from '../../app/router.tsx'
import { parseTags } from '../../lib/tags.ts'
import { Button, StatusBadge } from '../../ui/Primitives.tsx'

// Run detail edits tags too and takes the parser from here.
export { parseTags }

interface Props {
  run: RunListItem
  selected: boolean
  study: StudyListItem | null
  onToggle: () => void
  onChanged: () => void
  cells: { started: string; length: string; requests: string }
}

function TagsCell({ run, onChanged }: { run: RunListItem; onChanged: () => void }) {
  const api = useApi()
  const [editing, setEditing] = useState(false)
  const [tagText, setTagText] = useState(run.tags.join(', '))
  const saveTags = useAction(async () => {
    await api.runs.tag(run.runId, parseTags(tagText))
    setEditing(false)
    onChanged()
  })
  if (!editing)
    return (
      <span className="tags">
        {run.tags.map((t) => (
          <span className="tag" key={t}>
            {t}
          </span>
        ))}
        <Button
          variant="ghost"
          onClick={() => setEditing(true)}
          aria-label={`Edit tags of run ${run.runId}`}
          data-testid={`history-tags-edit-${run.runId}`}
        >
          ✎
        </Button>
      </span>
    )
  return (
    <form
      className="inline-form"
      onSubmit={(e) => {
        e.preventDefault()
        void saveTags.run()
      }}
    >
      <input
        value={tagText}
        onChange={(e) => setTagText(e.target.value)}
        aria-label="Tags, comma separated"
        autoFocus
        data-testid={`history-tags-input-${run.runId}`}
      />
      <Button type="submit" busy={saveTags.busy} data-testid={`history-tags-save-${run.runId}`}>
        Save
      </Button>
      <Button variant="ghost" onClick={() => setEditing(false)}>
        Cancel
      </Button>
      {saveTags.error ? <span className="field-error">{saveTags.error}</span> : null}
    </form>
  )
}

function DeleteCell({ run, onChanged }: { run: RunListItem; onChanged: () => void }) {
  const api = useApi()
  const [confirming, setConfirming] = useState(false)
  const remove = useAction(async () => {
    await api.runs.delete(run.runId)
    onChanged()
  })
  if (!confirming)
    return (
      <Button
        variant="ghost"
        disabled={run.status === 'running'}
        onClick={() => setConfirming(true)}
        data-testid={`history-delete-${run.runId}`}
        aria-label={`Delete run ${run.runId}`}
      >
        Delete
      </Button>
    )
  return (
    <>
      <Button
        variant="danger"
        busy={remove.busy}
        onClick={() => void remove.run()}
        data-testid={`history-delete-confirm-${run.runId}`}
      >
        Delete for good
      </Button>
      <Button variant="ghost" onClick={() => setConfirming(false)}>
        Keep
      </Button>
      {remove.error ? <span className="field-error">{remove.error}</span> : null}
    </>
  )
}

function RunName({ run, study }: { run: RunListItem; study: StudyListItem | null }) {
  return (
    <>
      <Link to={`/runs/${run.runId}`} data-testid={`history-open-${run.runId}`}>
        #{run.runId} {run.name}
      </Link>
      {study ? (
        <Link
          className="study-badge"
          to={`/studies/${study.studyId}`}
          title={`Part of the study “${study.name}” (${study.path})`}
          data-testid={`history-study-${run.runId}`}
        >
          study #{study.studyId}
        </Link>
      ) : null}
    </>
  )
}

export function RunRow({ run, selected, study, onToggle, onChanged, cells }: Props) {
  const badge = <StatusBadge status={run.status} />
  return (
    <tr
      data-testid={`history-row-${run.runId}`}
      data-run-id={run.runId}
      className={selected ? 'selected' : undefined}
    >
      <td>
        <input
          type="checkbox"
          checked={selected}
          onChange={onToggle}
          aria-label={`Select run ${run.runId} (${run.name})`}
          data-testid={`history-select-${run.runId}`}
        />
      </td>
      <td>
        <RunName run={run} study={study} />
      </td>
      <td>{run.status === 'running' ? <Link to={`/live/${run.runId}`}>{badge}</Link> : badge}</td>
      <td>{run.targets.join(', ')}</td>
      <td>{cells.started}</td>
      <td>{cells.length}</td>
      <td className="num">{cells.requests}</td>
      <td>
        <TagsCell run={run} onChanged={onChanged} />
      </td>
      <td className="row-actions">
        <DeleteCell run={run} onChanged={onChanged} />
      </td>
    </tr>
  )
}
