// A question before something that cannot be undone ("Start over" wipes the draft): a modal
// <dialog>, so the browser traps focus in it and Escape cancels; focus starts on Cancel (the safe
// answer) and goes back where it was when the dialog closes.
import { useEffect, useId, useRef, type ReactNode } from 'react'
import { Button } from './Primitives.tsx'

export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  onConfirm,
  onCancel,
  testId,
}: {
  open: boolean
  title: string
  children: ReactNode
  confirmLabel: string
  onConfirm: () => void
  onCancel: () => void
  testId: string
}) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) {
      dialog.showModal()
      dialog.querySelector<HTMLButtonElement>('[data-safe]')?.focus()
    }
    if (!open && dialog.open) dialog.close()
  }, [open])
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      data-testid={testId}
      // Escape: the browser's cancel; the answer is the state's, so the dialog closes through it.
      onCancel={(e) => {
        e.preventDefault()
        onCancel()
      }}
    >
      {open ? (
        <>
          <h2 id={titleId}>{title}</h2>
          <div className="dialog-body">{children}</div>
          <div className="actions">
            <Button data-safe onClick={onCancel} data-testid={`${testId}-cancel`}>
              Cancel
            </Button>
            <Button variant="danger" onClick={onConfirm} data-testid={`${testId}-confirm`}>
              {confirmLabel}
            </Button>
          </div>
        </>
      ) : null}
    </dialog>
  )
}
