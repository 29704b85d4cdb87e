// A run's agents as Kubernetes objects: one Indexed Job (the platform sets JOB_COMPLETION_INDEX,
// the index of the agent contract, env.ts) and, when we are given the store's URL, the Secret
// holding it, mounted as a file (CANNONADE_STORE_URL_FILE): never in the Job's spec, where
// anyone who may read Jobs, and every `kubectl describe`, would see the password. Pure: the
// launcher (kubernetes.ts) posts exactly what `cannonade agents manifest` prints.
import { stringify } from 'yaml'
import { ENV } from '../env.ts'

/** The image's entrypoint is `cannonade`; the Docker launcher's agent image is built that way. */
export const DEFAULT_AGENT_IMAGE = 'cannonade-agent:latest'
/** The Secret a GitOps user creates once (key `url`) when the manifest must not hold the URL. */
export const DEFAULT_STORE_SECRET = 'cannonade-store'
export const STORE_SECRET_KEY = 'url'
/** Every object of a run carries it: the launcher finds the run's pods by it. */
export const RUN_LABEL = 'cannonade/run'
/** The container's name in the pod (logs, exit codes and the failure policy name it). */
export const AGENT_CONTAINER = 'agent'
const SECRET_DIR = '/var/run/cannonade/store'
const DATA_DIR = '/var/lib/cannonade-agent'

export interface KubernetesAgentsOptions {
  runKey: string
  count: number
  namespace: string
  image?: string
  /**
   * The store's URL: `{ url }` renders a Secret holding it (the launcher, or `--secret-from-env`);
   * `{ name }` refers to a Secret the user created, whose key `url` holds it.
   */
  store: { url: string } | { name: string }
  /** Per agent; one agent's load thread uses one core, so it asks for one. */
  cpu?: string
  memory?: string
  /** How long the finished Job (and its pods' logs) stays for a look before the cluster removes it. */
  ttlSecondsAfterFinished?: number
}

/** A Kubernetes object as the API takes it. */
export interface KubeObject {
  apiVersion: string
  kind: string
  metadata: { name: string; namespace: string; labels: Record<string, string> }
  [field: string]: unknown
}

/** The Job's name: one per run, so two runs' agents never meet in one namespace. */
export function jobName(runKey: string): string {
  return `cannonade-agents-${runKey}`
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/
/** CPU as Kubernetes writes it: 1, 0.5, 500m. */
const CPU = /^(\d+(\.\d+)?|\d+m)$/
/** Memory: 512Mi, 1Gi, 1G, 1000000… */
const MEMORY = /^\d+(\.\d+)?(Ki|Mi|Gi|Ti|k|M|G|T)?$/

/** Why these options cannot make valid objects, or null. Each message names the option. */
export function manifestProblem(o: KubernetesAgentsOptions): string | null {
  if (!/^[0-9a-f]{16}$/.test(o.runKey)) return `run key ${o.runKey}: must be 16 hex digits`
  if (!Number.isInteger(o.count) || o.count < 1) return `agents: ${o.count} is not a whole number from 1`
  if (o.namespace.length > 63 || !DNS_LABEL.test(o.namespace))
    return `namespace ${o.namespace}: must be a DNS label (lower-case letters, digits, -; at most 63)`
  if (o.image !== undefined && (o.image === '' || /\s/.test(o.image)))
    return `image "${o.image}": must be an image reference without spaces`
  if (
    'name' in o.store &&
    (o.store.name.length > 253 || !/^[a-z0-9]([-.a-z0-9]*[a-z0-9])?$/.test(o.store.name))
  )
    return `secret ${o.store.name}: must be a DNS subdomain name`
  if ('url' in o.store && !/^postgres(ql)?:\/\//.test(o.store.url))
    return `${ENV.storeUrl} must be a postgres:// URL the agents can reach from the cluster`
  if (o.cpu !== undefined && !CPU.test(o.cpu)) return `agent CPU ${o.cpu}: write it like 1, 0.5 or 500m`
  if (o.memory !== undefined && !MEMORY.test(o.memory))
    return `agent memory ${o.memory}: write it like 512Mi or 1Gi`
  return null
}

type Labels = Record<string, string>

/** The Secret holding the store's URL, when the options carry the URL itself. */
function storeSecret(
  o: KubernetesAgentsOptions,
  url: string,
  secretName: string,
  labels: Labels,
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: secretName, namespace: o.namespace, labels },
    type: 'Opaque',
    stringData: { [STORE_SECRET_KEY]: url },
  }
}

/** One agent: `cannonade agent` with the agent contract's variables, locked down. */
function agentContainer(o: KubernetesAgentsOptions): Record<string, unknown> {
  const memory = o.memory ?? '512Mi'
  return {
    name: AGENT_CONTAINER,
    image: o.image ?? DEFAULT_AGENT_IMAGE,
    args: ['agent'],
    env: [
      { name: ENV.run, value: o.runKey },
      { name: ENV.count, value: String(o.count) },
      { name: ENV.storeUrlFile, value: `${SECRET_DIR}/${STORE_SECRET_KEY}` },
      { name: ENV.data, value: DATA_DIR },
      // The run names each agent by its pod (the index comes from JOB_COMPLETION_INDEX).
      { name: ENV.host, valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
    ],
    // A CPU request and no CPU limit: a limit throttles the load thread inside a
    // second (CFS quota), which shows up as latency the target never caused.
    resources: {
      requests: { cpu: o.cpu ?? '1', memory },
      limits: { memory },
    },
    securityContext: {
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    },
    volumeMounts: [
      { name: 'store', mountPath: SECRET_DIR, readOnly: true },
      { name: 'data', mountPath: DATA_DIR },
      { name: 'tmp', mountPath: '/tmp' },
    ],
  }
}

/** An agent's pod: never restarted, spread over nodes, unprivileged, the store's Secret mounted. */
function agentPod(o: KubernetesAgentsOptions, secretName: string, labels: Labels): Record<string, unknown> {
  return {
    metadata: { labels },
    spec: {
      restartPolicy: 'Never',
      automountServiceAccountToken: false,
      // Agents on one node would share its cores and network: spread them when the cluster can.
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: 'kubernetes.io/hostname',
          whenUnsatisfiable: 'ScheduleAnyway',
          labelSelector: { matchLabels: { [RUN_LABEL]: o.runKey } },
        },
      ],
      // fsGroup makes the mounted secret readable by the agent's user, and by no one else.
      securityContext: {
        runAsNonRoot: true,
        runAsUser: 1000,
        fsGroup: 1000,
        seccompProfile: { type: 'RuntimeDefault' },
      },
      containers: [agentContainer(o)],
      volumes: [
        {
          name: 'store',
          secret: {
            secretName,
            items: [{ key: STORE_SECRET_KEY, path: STORE_SECRET_KEY }],
            defaultMode: 0o440,
          },
        },
        // The agent's raw ledger (SQLite) and scratch: the root filesystem stays read-only.
        { name: 'data', emptyDir: {} },
        { name: 'tmp', emptyDir: {} },
      ],
    },
  }
}

/** The Indexed Job: one pod per agent index, all at once, one try each. */
function agentsJob(o: KubernetesAgentsOptions, secretName: string, labels: Labels): KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: jobName(o.runKey), namespace: o.namespace, labels },
    spec: {
      completionMode: 'Indexed',
      completions: o.count,
      parallelism: o.count,
      // One-shot per index: a restarted agent would find its index taken (refused, exit 2). Per
      // index and not the Job's backoffLimit 0, which on the first failed pod would terminate
      // every other agent: one lost agent makes the run partial, not empty.
      backoffLimitPerIndex: 0,
      podFailurePolicy: {
        rules: [
          // Exit 2: refused (unknown or ended run, count mismatch, bad environment). Every agent
          // has the same environment, so the others would be refused too: end it at once.
          {
            action: 'FailJob',
            onExitCodes: { containerName: AGENT_CONTAINER, operator: 'In', values: [2] },
          },
        ],
      },
      ttlSecondsAfterFinished: o.ttlSecondsAfterFinished ?? 3600,
      template: agentPod(o, secretName, labels),
    },
  }
}

/** The objects, in the order they are to be created: the Secret (when rendered) before the Job. */
export function kubernetesAgents(o: KubernetesAgentsOptions): KubeObject[] {
  const problem = manifestProblem(o)
  if (problem) throw new Error(problem)
  const labels = { 'app.kubernetes.io/name': 'cannonade-agent', [RUN_LABEL]: o.runKey }
  const secretName = 'url' in o.store ? `${jobName(o.runKey)}-store` : o.store.name
  const secret = 'url' in o.store ? [storeSecret(o, o.store.url, secretName, labels)] : []
  return [...secret, agentsJob(o, secretName, labels)]
}

/** The objects as one YAML stream, for `kubectl apply -f -` or a GitOps repository. */
export function toYaml(objects: readonly KubeObject[]): string {
  return objects.map((o) => stringify(o, { lineWidth: 0, aliasDuplicateObjects: false })).join('---\n')
}
