// One entry per monitor kind of engine/config/schema-monitor.ts: its label in the kind picker and
// the component with its fields. A new source is a compile error here until it has both (and in
// ../monitorDraft.ts and ../fromConfig.ts until the draft carries its fields).
import type { ComponentType } from 'react'
import type { MonitorKind } from '../draft.ts'
import { CloudFoundryFields } from './CloudFoundryFields.tsx'
import { DockerFields } from './DockerFields.tsx'
import { KubernetesFields } from './KubernetesFields.tsx'
import { PostgresFields } from './PostgresFields.tsx'
import { ProcessFields } from './ProcessFields.tsx'
import { PrometheusFields } from './PrometheusFields.tsx'
import type { MonitorFieldsProps } from './types.ts'

export const MONITOR_KINDS: Record<
  MonitorKind,
  { label: string; Fields: ComponentType<MonitorFieldsProps> | null }
> = {
  none: { label: 'Not monitored', Fields: null },
  docker: { label: 'Docker container / compose project', Fields: DockerFields },
  process: { label: 'Local process (PID or port)', Fields: ProcessFields },
  cloudfoundry: { label: 'Cloud Foundry app', Fields: CloudFoundryFields },
  postgres: { label: 'PostgreSQL connections (pg_stat_activity)', Fields: PostgresFields },
  prometheus: {
    label: 'Prometheus (cAdvisor, node_exporter, JVM, Node.js, any PromQL)',
    Fields: PrometheusFields,
  },
  kubernetes: { label: 'Kubernetes pods (metrics.k8s.io)', Fields: KubernetesFields },
}

/** The kind picker's options, in the order above. */
export const MONITOR_KIND_OPTIONS = (Object.keys(MONITOR_KINDS) as MonitorKind[]).map((value) => ({
  value,
  label: MONITOR_KINDS[value].label,
}))
