// The cards of the settings form: data (theme, how long raw samples are kept), Docker, the secrets
// folder, Cloud Foundry (what a new monitor starts with), and the save bar.
import type { useAction } from '../../api/context.tsx'
import { Button, Card } from '../../ui/Primitives.tsx'
import { NumberField, SelectField, TextField } from '../../ui/Field.tsx'
import type { Form, FormErrors } from './useSettingsForm.ts'

interface CardProps {
  form: Form
  set: <K extends keyof Form>(k: K, v: Form[K]) => void
  errors: FormErrors
}

/** A text setting's value, change and message, for a TextField. */
function text({ form, set, errors }: CardProps, k: 'dockerHost' | 'cfApi' | 'cfUsername' | 'secretsDir') {
  return { value: form[k], onChange: (v: string) => set(k, v), error: errors[k] }
}

export function DataCard({ form, set, errors, dataDir }: CardProps & { dataDir: string | null }) {
  return (
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
  )
}

export function SecretsFolderCard(props: CardProps) {
  return (
    <Card title="Secret files">
      <TextField
        label="Secrets folder"
        {...text(props, 'secretsDir')}
        placeholder="/home/me/.config/cannonade/secrets"
        hint="The only folder whose files a config may name as secrets (a Prometheus monitor's tokenFile). Empty: CANNONADE_SECRETS_DIR, else a config names no file."
        testId="settings-secrets-dir"
      />
    </Card>
  )
}

export function DockerCard(props: CardProps) {
  return (
    <Card title="Docker">
      <TextField
        label="Docker host"
        {...text(props, 'dockerHost')}
        placeholder="unix:///var/run/docker.sock (default)"
        hint="Where docker monitors and stacks find Docker (DOCKER_HOST for the docker and compose commands). Empty: DOCKER_HOST, or the default socket."
        testId="settings-docker-host"
      />
    </Card>
  )
}

export function CloudFoundryCard(props: CardProps) {
  return (
    <Card title="Cloud Foundry">
      <p className="muted">A new Cloud Foundry monitor in the wizard starts with this endpoint and user.</p>
      <div className="grid-2">
        <TextField
          label="API endpoint"
          {...text(props, 'cfApi')}
          placeholder="https://api.cf.example.com"
          testId="settings-cf-api"
        />
        <TextField label="User" {...text(props, 'cfUsername')} testId="settings-cf-user" />
      </div>
    </Card>
  )
}

export function SaveBar({
  valid,
  save,
  saved,
}: {
  valid: boolean
  save: ReturnType<typeof useAction>
  saved: boolean
}) {
  return (
    <div className="actions">
      <Button type="submit" variant="primary" disabled={!valid} busy={save.busy} data-testid="settings-save">
        Save settings
      </Button>
      {saved ? (
        <span className="check-ok" role="status" data-testid="settings-saved">
          Saved
        </span>
      ) : null}
      {save.error ? <span className="field-error">{save.error}</span> : null}
    </div>
  )
}
