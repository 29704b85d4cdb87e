import { describe, expect, it } from 'vitest'
import type { ReportProgressEvent } from '../engine/api/types.ts'
import { PdfReports } from './report-progress.ts'

const ev = (
  runIds: number[],
  format: 'pdf' | 'html',
  stage: ReportProgressEvent['stage'],
): ReportProgressEvent => ({
  type: 'report-progress',
  runIds,
  format,
  stage,
  elapsedMs: 1,
})

describe('PdfReports: the engine HTML pass shown as the PDF it is for', () => {
  it('renames the HTML stages of a report being printed and drops its early done', () => {
    const reports = new PdfReports()
    reports.begin([3, 4])
    expect(reports.translate(ev([3, 4], 'html', 'loading data'))).toEqual(ev([3, 4], 'pdf', 'loading data'))
    expect(reports.translate(ev([3, 4], 'html', 'building html'))).toEqual(ev([3, 4], 'pdf', 'building html'))
    expect(reports.translate(ev([3, 4], 'html', 'done'))).toBeNull()
    // Other reports pass as they are.
    expect(reports.translate(ev([5], 'html', 'done'))).toEqual(ev([5], 'html', 'done'))
    reports.end([3, 4])
    expect(reports.translate(ev([3, 4], 'html', 'done'))).toEqual(ev([3, 4], 'html', 'done'))
  })
  it('counts overlapping prints of the same runs', () => {
    const reports = new PdfReports()
    reports.begin([1])
    reports.begin([1])
    reports.end([1])
    expect(reports.translate(ev([1], 'html', 'done'))).toBeNull()
    reports.end([1])
    expect(reports.translate(ev([1], 'html', 'done'))).not.toBeNull()
  })
})
