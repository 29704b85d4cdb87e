// Settings: where data lives, the Docker host, the PostgreSQL export connection, the Cloud Foundry
// endpoint, and (desktop) secrets kept encrypted by the OS. Passwords are never saved in settings.
import type { DesktopBridge } from '#engine/api/transport/bridge.ts'
import type { Settings as SettingsT } from '#engine/api/schemas.ts'
import { useApi, useApiEnv, useAsync } from '../../api/context.tsx'
import { Banner } from '../../ui/Primitives.tsx'
import { PgConnection } from './PgConnection.tsx'
import { Secrets } from './Secrets.tsx'
import { CloudFoundryCard, DataCard, DockerCard, SaveBar, SecretsFolderCard } from './SettingsCards.tsx'
import { useSettingsForm } from './useSettingsForm.ts'

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
  const { form, set, errors, valid, save, saved } = useSettingsForm(initial, onSaved)
  const cards = { form, set, errors }
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        if (valid) void save.run()
      }}
      data-testid="settings-form"
    >
      <DataCard {...cards} dataDir={dataDir} />
      <DockerCard {...cards} />
      <SecretsFolderCard {...cards} />
      <PgConnection
        value={form.pgExportUrl}
        onChange={(v) => set('pgExportUrl', v)}
        error={errors.pgExportUrl}
        desktop={desktop}
      />
      <CloudFoundryCard {...cards} />
      <SaveBar valid={valid} save={save} saved={saved} />
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
