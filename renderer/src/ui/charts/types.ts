// What the charts of this folder draw: series by key, rows by time, markers on the timeline.

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
