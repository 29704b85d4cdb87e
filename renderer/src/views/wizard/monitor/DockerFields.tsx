// A docker monitor: a container by name or id, a compose project (and service), or a bundled stack;
// optionally each process of the container apart.
import { CheckAt, SelectAt, TextAt } from '../fields.tsx'
import { child } from '../part.ts'
import type { MonitorFieldsProps } from './types.ts'

export function DockerFields({ monitor, id }: MonitorFieldsProps) {
  // The draft keeps these apart; the config has them on the monitor itself.
  const docker = child(monitor, 'docker', '')
  const by = docker.value.by
  return (
    <>
      <div className="grid-3">
        <SelectAt
          part={docker}
          k="by"
          label="Select by"
          options={[
            { value: 'container', label: 'container name or id' },
            { value: 'project', label: 'compose project' },
            { value: 'stack', label: 'bundled stack' },
          ]}
          testId={`${id}-docker-by`}
        />
        {by === 'stack' ? (
          <TextAt
            part={docker}
            k="stack"
            label="Stack"
            placeholder="node-http"
            error={docker.at('stack') ?? docker.at('container')}
            testId={`${id}-stack`}
          />
        ) : by === 'container' ? (
          <TextAt
            part={docker}
            k="container"
            label="Container"
            placeholder="cannonade-node-http-app-1"
            testId={`${id}-container`}
          />
        ) : (
          <>
            <TextAt
              part={docker}
              k="project"
              label="Project"
              error={docker.at('project') ?? docker.at('container')}
              testId={`${id}-project`}
            />
            <TextAt part={docker} k="service" label="Service (optional)" testId={`${id}-service`} />
          </>
        )}
      </div>
      <CheckAt
        part={docker}
        k="processes"
        label="Each process apart (a cluster's workers, as top shows them)"
        testId={`${id}-processes`}
      />
    </>
  )
}
