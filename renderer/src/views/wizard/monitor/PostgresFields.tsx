// A postgres monitor (connections by state from pg_stat_activity): a bundled stack's database, or
// a postgres:// URL without a password and the variable that holds it.
import { SelectAt, TextAt } from '../fields.tsx'
import { child } from '../part.ts'
import type { MonitorFieldsProps } from './types.ts'

export function PostgresFields({ monitor, id }: MonitorFieldsProps) {
  const pg = child(monitor, 'postgres', '')
  return (
    <div className="grid-3">
      <SelectAt
        part={pg}
        k="by"
        label="Database of"
        options={[
          { value: 'stack', label: 'a bundled stack' },
          { value: 'url', label: 'a postgres:// URL' },
        ]}
        testId={`${id}-pg-by`}
      />
      {pg.value.by === 'stack' ? (
        <TextAt
          part={pg}
          k="stack"
          label="Stack"
          placeholder="node-http"
          error={pg.at('stack') ?? pg.at('url')}
          testId={`${id}-pg-stack`}
        />
      ) : (
        <>
          <TextAt
            part={pg}
            k="url"
            label="URL (no password)"
            placeholder="postgres://app@127.0.0.1:5432/shop"
            testId={`${id}-pg-url`}
          />
          <TextAt part={pg} k="passwordEnv" label="Password variable" testId={`${id}-pg-password-env`} />
        </>
      )}
    </div>
  )
}
