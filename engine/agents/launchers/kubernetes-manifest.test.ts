// The agents' Kubernetes objects (kubernetes-manifest.ts) and `cannonade agents manifest`: valid
// for Kubernetes 1.31 by its own JSON schemas (kubeconform, offline: the schemas are in
// test-fixtures/), the agent contract fulfilled (JOB_COMPLETION_INDEX, the store's URL from the
// mounted Secret), and the URL nowhere but in a Secret rendered on request. kubeconform is not
// needed to run the tests: `go install github.com/yannh/kubeconform/cmd/kubeconform@v0.7.0`
// (.ci/run does where Go is), or KUBECONFORM=/path; without it that one test says it skipped.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
import { main } from '../../cli/main.ts'
import { readAgentEnv } from '../env.ts'
import {
  kubernetesAgents,
  manifestProblem,
  toYaml,
  type KubernetesAgentsOptions,
} from './kubernetes-manifest.ts'

const SCHEMAS = fileURLToPath(new URL('./test-fixtures/kubernetes-v1.31.0/', import.meta.url))
const URL_WITH_PASSWORD = 'postgres://agents:s3cret-pw@db.example:5432/cannonade'
const KEY = '0123456789abcdef'
const dir = mkdtempSync(join(tmpdir(), 'cannonade-k8s-manifest-'))

function kubeconform(): string | null {
  const candidates = [process.env.KUBECONFORM, join(homedir(), 'go', 'bin', 'kubeconform')]
  for (const c of candidates) if (c && existsSync(c)) return c
  const which = spawnSync('sh', ['-c', 'command -v kubeconform'], { encoding: 'utf8' })
  return which.status === 0 && which.stdout.trim() ? which.stdout.trim() : null
}

/** kubeconform's verdict on files, with only this folder's schemas (no network, none missing). */
function validate(bin: string, files: string[]) {
  const r = spawnSync(
    bin,
    [
      '-strict',
      '-summary',
      '-output',
      'json',
      '-schema-location',
      `${SCHEMAS}{{.ResourceKind}}{{.KindSuffix}}.json`,
      ...files,
    ],
    { encoding: 'utf8' },
  )
  const out = JSON.parse(r.stdout) as {
    resources: { filename: string; kind: string; status: string; msg: string }[]
    summary: { valid: number; invalid: number; errors: number; skipped: number }
  }
  return { status: r.status, ...out }
}

/** What the tests read of the objects, as the API would read them (JSON). */
interface PodSpec {
  restartPolicy: string
  containers: {
    env: { name: string; value?: string }[]
    volumeMounts: { name: string; mountPath: string }[]
  }[]
  volumes: { name: string; secret?: { secretName: string; items: { key: string; path: string }[] } }[]
}
interface JobJson {
  kind: 'Job'
  spec: { completions: number; podFailurePolicy: { rules: unknown[] }; template: { spec: PodSpec } }
}
interface SecretJson {
  kind: 'Secret'
  metadata: { name: string }
  stringData: Record<string, string>
}
const asJson = <T>(v: unknown): T => JSON.parse(JSON.stringify(v)) as T

const base: KubernetesAgentsOptions = {
  runKey: KEY,
  count: 3,
  namespace: 'load',
  store: { url: URL_WITH_PASSWORD },
}

async function cli(args: string[], env: Record<string, string | undefined> = {}) {
  let stdout = ''
  let stderr = ''
  const saved = { ...process.env }
  Object.assign(process.env, env)
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k]
  try {
    const code = await main(args, {
      stdout: { write: (s: string) => ((stdout += s), true) } as NodeJS.WritableStream,
      stderr: { write: (s: string) => ((stderr += s), true) } as NodeJS.WritableStream,
      isTTY: false,
      dbPath: join(dir, 'unused.db'),
    })
    return { code, stdout, stderr }
  } finally {
    process.env = saved
  }
}

const config = join(dir, 'config.yaml')
writeFileSync(
  config,
  `version: 1
name: k8s
targets: [{ name: a, url: "http://127.0.0.1:9/" }]
load: { connections: 4, duration: 5 }
`,
)

describe('the agents as an Indexed Job', () => {
  it('passes kubeconform against the Kubernetes 1.31 schemas, which reject what they should', (ctx) => {
    const bin = kubeconform()
    if (!bin) {
      console.log(
        'skipped: kubeconform is not installed (go install github.com/yannh/kubeconform/cmd/kubeconform@v0.7.0, or set KUBECONFORM)',
      )
      ctx.skip()
      return
    }
    const variants: KubernetesAgentsOptions[] = [
      base,
      { ...base, count: 1, store: { name: 'cannonade-store' } },
      { ...base, count: 200, image: 'registry.example/cannonade-agent:0.1.0', cpu: '500m', memory: '1Gi' },
    ]
    const files = variants.map((v, i) => {
      const file = join(dir, `variant-${i}.yaml`)
      writeFileSync(file, toYaml(kubernetesAgents(v)))
      return file
    })
    const ok = validate(bin, files)
    expect(ok.resources.filter((r) => r.status !== 'statusValid')).toEqual([])
    expect(ok.summary).toEqual({ valid: 5, invalid: 0, errors: 0, skipped: 0 })
    expect(ok.status).toBe(0)

    // The schemas are really used: a field the Job API lacks, and a wrong type, are refused.
    const [secret, job] = asJson<[SecretJson, JobJson]>(kubernetesAgents(base))
    const bad = join(dir, 'bad.yaml')
    writeFileSync(
      bad,
      toYaml([
        { ...job, spec: { ...job.spec, completions: 'three', restartsAllowed: 1 } } as never,
        secret as never,
      ]),
    )
    const refused = validate(bin, [bad])
    expect(refused.summary).toMatchObject({ valid: 1, invalid: 1 })
    expect(refused.resources.find((r) => r.kind === 'Job')?.msg).toMatch(/restartsAllowed|completions/)
    expect(refused.status).toBe(1)
  })

  it('is one Indexed Job of N one-shot pods whose environment is the agent contract', () => {
    const [secret, job] = asJson<[SecretJson, JobJson]>(kubernetesAgents(base))
    expect(secret).toMatchObject({
      kind: 'Secret',
      metadata: { name: `cannonade-agents-${KEY}-store`, namespace: 'load' },
    })
    expect(job.spec).toMatchObject({
      completionMode: 'Indexed',
      completions: 3,
      parallelism: 3,
      backoffLimitPerIndex: 0,
      template: { spec: { restartPolicy: 'Never' } },
    })
    expect(job.spec.podFailurePolicy.rules).toEqual([
      { action: 'FailJob', onExitCodes: { containerName: 'agent', operator: 'In', values: [2] } },
    ])
    // The store's URL is in the Secret only, never in the Job anyone may describe.
    expect(JSON.stringify(job)).not.toContain('s3cret-pw')
    expect(secret.stringData.url).toBe(URL_WITH_PASSWORD)

    // A pod's environment as Kubernetes would make it: the Job's variables, JOB_COMPLETION_INDEX,
    // and the Secret's key as the file the volume mounts.
    const pod = job.spec.template.spec
    const container = pod.containers[0]!
    const fileVar = container.env.find((e) => e.name === 'CANNONADE_STORE_URL_FILE')!.value!
    const mount = container.volumeMounts.find((m) => fileVar.startsWith(m.mountPath + '/'))!
    const volume = pod.volumes.find((v) => v.name === mount.name)!
    expect(volume.secret!.secretName).toBe(secret.metadata.name)
    const item = volume.secret!.items.find((i) => fileVar === `${mount.mountPath}/${i.path}`)!
    const mounted = join(dir, 'mounted-url')
    writeFileSync(mounted, secret.stringData[item.key]! + '\n')
    const env: NodeJS.ProcessEnv = { JOB_COMPLETION_INDEX: '2', HOSTNAME: 'x' }
    for (const e of container.env) env[e.name] = e.value ?? 'pod-name' // valueFrom: the pod's name
    env.CANNONADE_STORE_URL_FILE = mounted
    expect(readAgentEnv(env)).toMatchObject({
      index: 2,
      indexFrom: 'JOB_COMPLETION_INDEX',
      count: 3,
      runKey: KEY,
      storeUrl: URL_WITH_PASSWORD,
      dataDir: container.volumeMounts.find((m) => m.name === 'data')!.mountPath,
    })
  })

  it('names what is wrong with its options', () => {
    expect(manifestProblem({ ...base, namespace: 'Load Test' })).toMatch(
      /^namespace Load Test: must be a DNS label/,
    )
    expect(manifestProblem({ ...base, runKey: 'abc' })).toMatch(/^run key abc/)
    expect(manifestProblem({ ...base, cpu: 'two' })).toMatch(/^agent CPU two/)
    expect(manifestProblem({ ...base, store: { url: 'mysql://x' } })).toMatch(/postgres:\/\//)
    expect(() => kubernetesAgents({ ...base, count: 0 })).toThrow(/agents: 0/)
  })
})

describe('cannonade agents manifest', () => {
  it('renders without the URL by default: the Job refers to a Secret the user creates', async () => {
    const r = await cli(['agents', 'manifest', config, '--agents', '2', '--on', 'kubernetes', '--run', KEY], {
      CANNONADE_STORE_URL: URL_WITH_PASSWORD,
    })
    expect(r.code).toBe(0)
    const docs = asJson<JobJson[]>(parseAllDocuments(r.stdout).map((d) => d.toJS() as unknown))
    expect(docs.map((d) => d.kind)).toEqual(['Job'])
    expect(docs[0]!.spec.completions).toBe(2)
    expect(docs[0]!.spec.template.spec.volumes[0]!.secret!.secretName).toBe('cannonade-store')
    expect(r.stdout + r.stderr).not.toContain('s3cret-pw')
    expect(r.stderr).toMatch(/create secret generic cannonade-store --from-file=url=FILE/)
  })

  it('--secret-from-env renders the Secret from CANNONADE_STORE_URL into a file only its owner reads', async () => {
    const out = join(dir, 'with-secret.yaml')
    writeFileSync(out, 'an older manifest\n', { mode: 0o644 }) // there before: made private too
    const r = await cli(
      [
        'agents',
        'manifest',
        config,
        '--agents',
        '2',
        '--on',
        'kubernetes',
        '--secret-from-env',
        '--out',
        out,
      ],
      { CANNONADE_STORE_URL: URL_WITH_PASSWORD },
    )
    expect(r.code).toBe(0)
    expect(r.stdout + r.stderr).not.toContain('s3cret-pw')
    expect(r.stderr).toMatch(/holds the store's password/)
    expect(readFileSync(out, 'utf8')).toContain(URL_WITH_PASSWORD)
    expect(statSync(out).mode & 0o777).toBe(0o600)
    const missing = await cli(
      ['agents', 'manifest', config, '--agents', '2', '--on', 'kubernetes', '--secret-from-env'],
      {
        CANNONADE_STORE_URL: undefined,
      },
    )
    expect(missing).toMatchObject({ code: 2, stdout: '' })
    expect(missing.stderr).toMatch(/CANNONADE_STORE_URL is not set/)
  })

  it('refuses bad input, naming it, and prints nothing', async () => {
    const cases: [string[], RegExp][] = [
      [['--agents', '2', '--on', 'docker'], /--on docker: manifests are rendered for kubernetes only/],
      [['--agents', '0', '--on', 'kubernetes'], /--agents must be a whole number from 1/],
      [['--on', 'kubernetes'], /give --agents N/],
      [['--agents', '2', '--on', 'kubernetes', '--namespace', 'Bad_NS'], /namespace Bad_NS/],
      [['--agents', '2', '--on', 'kubernetes', '--run', 'nothex'], /run key nothex/],
      [['--agents', '2', '--on', 'kubernetes', '--secret', 'x', '--secret-from-env'], /give one of them/],
      [['--agents', '5', '--on', 'kubernetes'], /agents\.count: .*needs at least 5 connections/],
    ]
    const rate = join(dir, 'rate.yaml')
    writeFileSync(rate, readFileSync(config, 'utf8').replace('duration: 5', 'duration: 5, rate: 100'))
    for (const [args, message] of cases) {
      const file = args.includes('5') ? rate : config
      const r = await cli(['agents', 'manifest', file, ...args])
      expect({ args, code: r.code, stdout: r.stdout }).toEqual({ args, code: 2, stdout: '' })
      expect(r.stderr).toMatch(message)
    }
  })
})
