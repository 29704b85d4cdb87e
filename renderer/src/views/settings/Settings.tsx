// Settings: where data lives, the Docker host, the PostgreSQL export connection, the Cloud Foundry
// endpoint, and (desktop) secrets kept encrypted by the OS. Passwords are never saved in settings.
import { useState } from 'react'
import type { DesktopBridge } from '../../../../engine/api/transport/bridge.ts'
import { SettingsPatchSchema, type Settings as SettingsT } from '../../../../engine/api/schemas.ts'
import { issueMessage } from '../../../../engine/config/issue-words.ts'
import { useAction, useApi, useApiEnv, useAsync } from '../../api/context.tsx'
import { Banner, Button, Card } from '../../ui/Common.tsx'
import { NumberField, SelectField, TextField } from '../../ui/Field.tsx'
import { Secrets } from './Secrets.tsx'
import { checkPgUrl, PgConnection } from './PgConnection.tsx'
import { applyTheme } from '../../app/theme.ts'

type Form = {
  dockerHost: string
  pgExportUrl: string
  cfApi: string
  cfUsername: string
  theme: SettingsT['theme']
  retentionDays: number | undefined
}

function checkHttpUrl(url: string): string | undefined {
  if (url.trim() === '') return undefined
  try {
    const u = new URL(url)
    return u.protocol === 'http:' || u.protocol === 'https:' ? undefined : 'must be an http(s) URL'
  } catch {
    return 'is not a URL, e.g. https://api.cf.example.com'
  }
}

function SettingsForm({
  initial,
  dataDir,
  onSaved,
  desktop,
}: {
  initial: SettingsT
  dataDir: string | null
  onSaved: () => void
  desktop: DesktopBridge | null
}) {
  const api = useApi()
  const [form, setForm] = useState<Form>({
    dockerHost: initial.dockerHost ?? '',
    pgExportUrl: initial.pgExportUrl ?? '',
    cfApi: initial.cfApi ?? '',
    cfUsername: initial.cfUsername ?? '',
    theme: initial.theme,
    retentionDays: initial.ledgerRetentionDays ?? undefined,
  })
  const [saved, setSaved] = useState(false)
  const set = <K extends keyof Form>(k: K, v: Form[K]) => {
    setSaved(false)
    setForm((f) => ({ ...f, [k]: v }))
  }
  // A cleared field is sent as null: the engine removes the setting (undefined would keep the old value).
  const patch = {
    dockerHost: form.dockerHost.trim() || null,
    pgExportUrl: form.pgExportUrl.trim() || null,
    cfApi: form.cfApi.trim() || null,
    cfUsername: form.cfUsername.trim() || null,
    theme: form.theme,
    ledgerRetentionDays: form.retentionDays ?? null,
  }
  const parsed = SettingsPatchSchema.safeParse(patch)
  const schemaIssues = new Map(
    parsed.success ? [] : parsed.error.issues.map((i) => [i.path.join('.'), issueMessage(i)]),
  )
  const errors = {
    pgExportUrl: schemaIssues.get('pgExportUrl') ?? checkPgUrl(form.pgExportUrl),
    cfApi: schemaIssues.get('cfApi') ?? checkHttpUrl(form.cfApi),
    dockerHost: schemaIssues.get('dockerHost'),
    cfUsername: schemaIssues.get('cfUsername'),
    retentionDays: schemaIssues.get('ledgerRetentionDays'),
  }
  const valid = Object.values(errors).every((e) => e === undefined)
  const save = useAction(async () => {
    await api.settings.set(patch)
    applyTheme(form.theme)
    setSaved(true)
    onSaved()
  })
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        if (valid) void save.run()
      }}
      data-testid="settings-form"
    >
      <Card title="Data">
        <p>
          Runs are kept in{' '}
          <code data-testid="settings-data-dir">{dataDir ?? 'the default data directory'}</code>. The{' '}
          <code>cannonade</code> command uses the same database unless given <code>--db</code>.
        </p>
        <SelectField
          label="Theme"
          value={form.theme}
          options={[
            { value: 'system', label: 'follow the system' },
            { value: 'light', label: 'light' },
            { value: 'dark', label: 'dark' },
          ]}
          onChange={(v) => set('theme', v)}
          testId="settings-theme"
        />
        <NumberField
          label="Keep raw samples for (days)"
          value={form.retentionDays}
          onChange={(v) => set('retentionDays', v)}
          error={errors.retentionDays}
          min={1}
          step={1}
          placeholder="forever"
          hint="Each request takes ~56 bytes (50 000 req/s is ~10 GB an hour). Older runs keep their summaries, series and histograms."
          testId="settings-retention"
        />
      </Card>
      <Card title="Docker">
        <TextField
          label="Docker host"
          value={form.dockerHost}
          placeholder="unix:///var/run/docker.sock (default)"
          onChange={(v) => set('dockerHost', v)}
          error={errors.dockerHost}
          hint="Where docker monitors and stacks find Docker (DOCKER_HOST for the docker and compose commands). Empty: DOCKER_HOST, or the default socket."
          testId="settings-docker-host"
        />
      </Card>
      <PgConnection
        value={form.pgExportUrl}
        onChange={(v) => set('pgExportUrl', v)}
        error={errors.pgExportUrl}
        desktop={desktop}
      />
      <Card title="Cloud Foundry">
        <p className="muted">A new Cloud Foundry monitor in the wizard starts with this endpoint and user.</p>
        <div className="grid-2">
          <TextField
            label="API endpoint"
            value={form.cfApi}
            placeholder="https://api.cf.example.com"
            onChange={(v) => set('cfApi', v)}
            error={errors.cfApi}
            testId="settings-cf-api"
          />
          <TextField
            label="User"
            value={form.cfUsername}
            onChange={(v) => set('cfUsername', v)}
            error={errors.cfUsername}
            testId="settings-cf-user"
          />
        </div>
      </Card>
      <div className="actions">
        <Button
          type="submit"
          variant="primary"
          disabled={!valid}
          busy={save.busy}
          data-testid="settings-save"
        >
          Save settings
        </Button>
        {saved ? (
          <span className="check-ok" role="status" data-testid="settings-saved">
            Saved
          </span>
        ) : null}
        {save.error ? <span className="field-error">{save.error}</span> : null}
      </div>
    </form>
  )
}

export default function Settings() {
  const api = useApi()
  const { mode, desktop } = useApiEnv()
  const settings = useAsync(() => api.settings.get(), [api])
  const raw: unknown = settings.data
  const dataDir =
    typeof raw === 'object' && raw !== null && 'dataDir' in raw && typeof raw.dataDir === 'string'
      ? raw.dataDir
      : null
  return (
    <section data-testid="settings">
      <header className="view-head">
        <h1>Settings</h1>
      </header>
      {settings.error ? <Banner kind="error">Could not load settings: {settings.error}</Banner> : null}
      {settings.data ? (
        <SettingsForm initial={settings.data} dataDir={dataDir} onSaved={settings.reload} desktop={desktop} />
      ) : null}
      <Secrets mode={mode} desktop={desktop} />
    </section>
  )
}
