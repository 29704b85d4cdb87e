// What the charts of ui/charts/ draw: series by key, rows by time, markers on the timeline. In
// lib/, below the charts, because lib/ builds these rows and markers from a run (series.ts,
// metrics.ts, steady.ts).

export interface SeriesDef {
  key: string
  label: string
  colour: string
  dashed?: boolean
}

export interface Marker {
  t: number
  label: string
}

export type Row = { t: number } & Record<string, number | null>

export type Domain = [number | 'auto' | 'dataMin' | 'dataMax', number | 'auto' | 'dataMin' | 'dataMax']
