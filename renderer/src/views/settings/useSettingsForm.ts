// The settings form as typed, what it would send (a cleared field as null: the engine removes the
// setting, undefined would keep the old value), its messages (the Api's own schema, then the
// URL checks), and saving it.
import { useState } from 'react'
import { SettingsPatchSchema, type Settings } from '#engine/api/schemas.ts'
import { issueMessage } from '#engine/config/issue-words.ts'
import { useAction, useApi } from '../../api/context.tsx'
import { applyTheme } from '../../app/theme.ts'
import { checkPgUrl } from './PgConnection.tsx'

export type Form = {
  dockerHost: string
  pgExportUrl: string
  cfApi: string
  cfUsername: string
  secretsDir: string
  theme: Settings['theme']
  retentionDays: number | undefined
}

export type FormErrors = Partial<Record<keyof Form, string>>

function checkHttpUrl(url: string): string | undefined {
  if (url.trim() === '') return undefined
  try {
    const u = new URL(url)
    return u.protocol === 'http:' || u.protocol === 'https:' ? undefined : 'must be an http(s) URL'
  } catch {
    return 'is not a URL, e.g. https://api.cf.example.com'
  }
}

function patchOf(form: Form) {
  return {
    dockerHost: form.dockerHost.trim() || null,
    pgExportUrl: form.pgExportUrl.trim() || null,
    cfApi: form.cfApi.trim() || null,
    cfUsername: form.cfUsername.trim() || null,
    secretsDir: form.secretsDir.trim() || null,
    theme: form.theme,
    ledgerRetentionDays: form.retentionDays ?? null,
  }
}

function errorsOf(form: Form, patch: ReturnType<typeof patchOf>): FormErrors {
  const parsed = SettingsPatchSchema.safeParse(patch)
  const schema = new Map(
    parsed.success ? [] : parsed.error.issues.map((i) => [i.path.join('.'), issueMessage(i)]),
  )
  return {
    pgExportUrl: schema.get('pgExportUrl') ?? checkPgUrl(form.pgExportUrl),
    cfApi: schema.get('cfApi') ?? checkHttpUrl(form.cfApi),
    dockerHost: schema.get('dockerHost'),
    cfUsername: schema.get('cfUsername'),
    secretsDir: schema.get('secretsDir'),
    retentionDays: schema.get('ledgerRetentionDays'),
  }
}

export function useSettingsForm(initial: Settings, onSaved: () => void) {
  const api = useApi()
  const [form, setForm] = useState<Form>({
    dockerHost: initial.dockerHost ?? '',
    pgExportUrl: initial.pgExportUrl ?? '',
    cfApi: initial.cfApi ?? '',
    cfUsername: initial.cfUsername ?? '',
    secretsDir: initial.secretsDir ?? '',
    theme: initial.theme,
    retentionDays: initial.ledgerRetentionDays ?? undefined,
  })
  const [saved, setSaved] = useState(false)
  const set = <K extends keyof Form>(k: K, v: Form[K]) => {
    setSaved(false)
    setForm((f) => ({ ...f, [k]: v }))
  }
  const patch = patchOf(form)
  const errors = errorsOf(form, patch)
  const valid = Object.values(errors).every((e) => e === undefined)
  const save = useAction(async () => {
    await api.settings.set(patch)
    applyTheme(form.theme)
    setSaved(true)
    onSaved()
  })
  return { form, set, errors, valid, save, saved }
}
