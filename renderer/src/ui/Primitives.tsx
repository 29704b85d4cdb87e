// The styled primitives every screen is built of (styles.css's classes): a banner, an empty state,
// a card, a button that can be busy, a run's status badge, a stat, numeric table heads.
import type { ButtonHTMLAttributes, ReactNode } from 'react'

export function Banner({
  kind,
  children,
  testId,
}: {
  kind: 'error' | 'warning' | 'info' | 'success'
  children: ReactNode
  testId?: string
}) {
  return (
    <div
      className={`banner banner-${kind}`}
      role={kind === 'error' || kind === 'warning' ? 'alert' : 'status'}
      data-testid={testId}
    >
      {children}
    </div>
  )
}

export function EmptyState({
  title,
  children,
  testId,
}: {
  title: string
  children: ReactNode
  testId?: string
}) {
  return (
    <section className="empty" data-testid={testId}>
      <h2>{title}</h2>
      {children}
    </section>
  )
}

export function Card({
  title,
  children,
  actions,
  testId,
  className,
}: {
  title?: ReactNode
  children: ReactNode
  actions?: ReactNode
  testId?: string
  className?: string
}) {
  return (
    <section className={`card${className ? ` ${className}` : ''}`} data-testid={testId}>
      {title || actions ? (
        <header className="card-head">
          {title ? <h3>{title}</h3> : <span />}
          {actions ? <div className="card-actions">{actions}</div> : null}
        </header>
      ) : null}
      {children}
    </section>
  )
}

export function Button({
  busy,
  children,
  variant = 'secondary',
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  busy?: boolean
  variant?: 'primary' | 'secondary' | 'danger' | 'ghost'
}) {
  return (
    <button
      type="button"
      {...rest}
      className={`btn btn-${variant}`}
      aria-busy={busy || undefined}
      disabled={busy || rest.disabled}
    >
      {children}
      {busy ? <span className="spinner" aria-hidden="true" /> : null}
    </button>
  )
}

export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`badge badge-${status}`} data-testid="status-badge">
      {status}
    </span>
  )
}

export function Stat({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <div className="stat" data-testid={testId}>
      <div className="stat-value">{value}</div>
      <div className="stat-label">{label}</div>
    </div>
  )
}

/** Header cells of numeric (right-aligned) table columns, one per name. */
export function NumHeads({ names }: { names: readonly string[] }) {
  return (
    <>
      {names.map((n) => (
        <th key={n} scope="col" className="num">
          {n}
        </th>
      ))}
    </>
  )
}
