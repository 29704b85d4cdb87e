// A Kubernetes monitor: the pods a label selector picks in a namespace, each pod's CPU and memory
// from the metrics API (metrics-server). The cluster is the kubeconfig's, read by the engine as the
// agents' Kubernetes launcher reads it (KUBECONFIG, else ~/.kube/config).
import { TextAt } from '../fields.tsx'
import { child } from '../part.ts'
import type { MonitorFieldsProps } from './types.ts'

export function KubernetesFields({ monitor, id }: MonitorFieldsProps) {
  const k = child(monitor, 'kubernetes', '')
  return (
    <>
      <div className="grid-3">
        <TextAt
          part={k}
          k="selector"
          label="Pods (label selector)"
          placeholder="app=shop,tier in (web)"
          testId={`${id}-k8s-selector`}
        />
        <TextAt
          part={k}
          k="namespace"
          label="Namespace (optional)"
          placeholder="the kubeconfig context's"
          testId={`${id}-k8s-namespace`}
        />
      </div>
      <p className="muted">
        The engine reads the cluster from its kubeconfig (KUBECONFIG, else ~/.kube/config), as it does for
        load agents on Kubernetes; the cluster needs metrics-server.
      </p>
    </>
  )
}
