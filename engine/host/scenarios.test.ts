// The Api's scenarios.import as every transport sees it, and a run of what it made: the secret it
// masked is given to the engine (EngineOptions.secrets, as the desktop app hands its secrets over),
// reaches the target, and is nowhere in the database; without it the start is refused before any
// run exists.
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { ApiError } from '../api/errors.ts'
import type { RunEndedEvent } from '../api/types.ts'
import { startRawTarget, type RawTarget } from '../testing/raw-http.ts'
import { tempDbPath } from '../testing/run-config.ts'
import { createEngine, type EngineHost } from './index.ts'

let host: EngineHost | null = null
let target: RawTarget | null = null
afterEach(async () => {
  await host?.close()
  await target?.close()
  host = target = null
})

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError)
    return err as ApiError
  }
  throw new Error('no error')
}

describe('scenarios.import', () => {
  it('answers a config with its steps, notes and secrets; bad input is bad-input naming why', async () => {
    host = await createEngine({ dbPath: tempDbPath() })
    const made = await host.scenarios.import({
      kind: 'curl',
      text: "curl -b 'sid=abc' http://127.0.0.1:9/a",
      name: 'pasted',
    })
    expect(made.config.name).toBe('pasted')
    expect(made.config.targets[0]!.steps![0]!.headers).toEqual({ Cookie: '${cookie}' })
    expect(made.secrets).toEqual([
      {
        target: '127.0.0.1:9',
        variable: 'cookie',
        env: 'CANNONADE_SECRET_COOKIE',
        where: ['step "GET /a" header Cookie'],
      },
    ])
    const cases: [unknown, RegExp][] = [
      [{ kind: 'curl', text: 'wget http://h/' }, /starts with "wget", not curl/],
      [{ kind: 'har', text: '<html>' }, /is not a HAR file: not JSON/],
      [{ kind: 'openapi', text: 'swagger: "2.0"', base: 'http://h' }, /is OpenAPI 2/],
      [{ kind: 'postman', text: '{}' }, /scenarios:import: source\.kind/],
      [{ kind: 'curl', text: '' }, /scenarios:import: source\.text is empty/],
      [{ kind: 'curl', text: 'curl h', extra: 1 }, /scenarios:import: source /],
    ]
    for (const [source, message] of cases) {
      const err = await rejection(
        host.scenarios.import(source as Parameters<EngineHost['scenarios']['import']>[0]),
      )
      expect(err.code, String(message)).toBe('bad-input')
      expect(err.message).toMatch(message)
    }
  })
})

describe('a run of an imported config with a secret', () => {
  it('sends the secret the engine was given and keeps it out of the database', async () => {
    target = await startRawTarget()
    const secret = `sid=${randomBytes(12).toString('hex')}`
    const dbPath = tempDbPath()
    host = await createEngine({ dbPath, secrets: () => ({ CANNONADE_SECRET_COOKIE: secret }) })
    const made = await host.scenarios.import({ kind: 'curl', text: `curl -b '${secret}' ${target.url}/me` })
    const config = { ...made.config, load: { connections: 1, duration: 1 }, rounds: 1, cooldownSeconds: 0 }
    const ended = new Promise<RunEndedEvent>((resolve) => host!.runs.onEnded(resolve))
    const { runId } = await host.runs.start(config)
    expect((await ended).status).toBe('done')
    expect(target.requests.length).toBeGreaterThan(0)
    for (const r of target.requests) expect(r.toString('latin1')).toContain(`\r\nCookie: ${secret}\r\n`)
    const stored = await host.runs.get(runId)
    expect(stored.config.targets[0]!.steps![0]!.headers.Cookie).toBe('${cookie}')
    await host.close()
    host = null
    for (const file of [dbPath, `${dbPath}-wal`])
      if (existsSync(file)) expect(readFileSync(file).includes(secret), file).toBe(false)
  })

  it('is refused while the secret is not set, before any run is created', async () => {
    host = await createEngine({ dbPath: tempDbPath(), secrets: () => ({}) })
    const made = await host.scenarios.import({
      kind: 'curl',
      text: "curl -H 'X-Api-Key: k' http://127.0.0.1:9/a",
    })
    const err = await rejection(host.runs.start(made.config))
    expect(err.code).toBe('bad-input')
    expect(err.field).toBe('targets.0.secrets.x_api_key')
    expect(err.message).toMatch(/CANNONADE_SECRET_X_API_KEY is not set/)
    expect((await host.runs.list()).total).toBe(0)
  })
})
