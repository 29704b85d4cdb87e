// What the live view says beside its numbers: the study the run is a value of, stacks started for
// it, the segment that comes after a cool-down, warnings, the generator's saturation, and how the
// run ended.
import type { StudyListItem } from '#engine/api/types.ts'
import { Link } from '../../app/router.tsx'
import { Banner } from '../../ui/Primitives.tsx'
import { RunWarnings } from '../../ui/RunWarnings.tsx'
import { startedStacks } from './startedStacks.ts'
import type { UpNext } from './upNext.ts'
import type { LiveView } from './useLiveRun.ts'

/** "Run 2 of 3 of the study “…”": the run's place among the study's values. */
export function StudyBanner({
  study,
  position,
  running,
  status,
}: {
  study: StudyListItem
  position: number
  running: boolean
  status: LiveView['status']
}) {
  return (
    <Banner kind="info" testId="live-study">
      Run {position + 1} of {study.size} of the study “{study.name}” (
      {study.axes.map((a, i) => (
        <span key={a.path}>
          {i > 0 ? ' × ' : ''}
          <code>{a.path}</code>
        </span>
      ))}
      ).{' '}
      {!running && status === 'done' && position + 1 < study.size
        ? 'The next value starts after the cool-down; this page follows it. '
        : ''}
      <Link to={`/studies/${study.studyId}`} data-testid="live-study-link">
        Open the study
      </Link>
    </Banner>
  )
}

export function StartBanners({
  runId,
  next,
  rounds,
}: {
  runId: number
  next: UpNext | null
  rounds: number
}) {
  return (
    <>
      {startedStacks(runId).length ? (
        <Banner kind="info" testId="live-stacks-started">
          Started for this run, as its config names them and they were not running (or ran otherwise):{' '}
          {startedStacks(runId).join(', ')}. They keep running after it; <Link to="/stacks">Stacks</Link>{' '}
          stops them.
        </Banner>
      ) : null}
      {next ? (
        <Banner kind="info" testId="live-up-next">
          Cool-down between segments: next {next.target}
          {rounds > 1 ? ` · round ${next.round}` : ''} (segment {next.index} of {next.of})
          {next.inSeconds > 0 ? `, starts in about ${next.inSeconds} s` : ', starting now'}.
        </Banner>
      ) : null}
    </>
  )
}

/** Warnings, the generator, and the run's end. */
export function EndBanners({ view }: { view: LiveView }) {
  return (
    <>
      <RunWarnings warnings={view.warnings} testId="live-warnings" />
      {view.saturated ? (
        <Banner kind="warning" testId="live-saturation">
          The load generator itself is saturated (its CPU is near 100 %): the numbers measure Cannonade, not
          the target. Use fewer connections, a rate, or a faster machine.
        </Banner>
      ) : null}
      {view.status === 'failed' ? (
        <Banner kind="error" testId="live-failed">
          The run failed: {view.error ?? 'no reason given'}
        </Banner>
      ) : null}
      {view.status === 'partial' ? (
        <Banner kind="warning" testId="live-partial">
          The run is partial: {view.error ?? 'a load agent did not finish'}. The merged figures hold only what
          the remaining agents measured.
        </Banner>
      ) : null}
      {view.status === 'aborted' ? (
        <Banner kind="info" testId="live-aborted">
          The run was stopped; what it measured until then is kept.
        </Banner>
      ) : null}
      {view.status === 'done' ? (
        <Banner kind="success" testId="live-done">
          The run finished.
        </Banner>
      ) : null}
    </>
  )
}
