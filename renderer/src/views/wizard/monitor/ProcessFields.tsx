// A process monitor: the process listening on a port, or a process id.
import { NumberAt, SelectAt } from '../fields.tsx'
import { child } from '../part.ts'
import type { MonitorFieldsProps } from './types.ts'

export function ProcessFields({ monitor, id }: MonitorFieldsProps) {
  const process = child(monitor, 'process', '')
  return (
    <div className="grid-3">
      <SelectAt
        part={process}
        k="by"
        label="Select by"
        options={[
          { value: 'port', label: 'listening port' },
          { value: 'pid', label: 'process id' },
        ]}
        testId={`${id}-process-by`}
      />
      {process.value.by === 'port' ? (
        <NumberAt
          part={process}
          k="port"
          label="Port"
          min={1}
          step={1}
          error={process.at('port') ?? process.at('pid')}
          testId={`${id}-port`}
        />
      ) : (
        <NumberAt part={process} k="pid" label="PID" min={1} step={1} testId={`${id}-pid`} />
      )}
    </div>
  )
}
