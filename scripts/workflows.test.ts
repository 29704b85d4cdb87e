// The release workflow (.github/workflows/release.yml): linted with actionlint when it is
// installed (it is not needed to run the tests, and CI installs nothing from the internet for
// it: `go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12`, or ACTIONLINT=/path), and
// always checked for what the release needs: every platform built, each smoke-tested.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'

const root = fileURLToPath(new URL('..', import.meta.url))
const dir = join(root, '.github', 'workflows')
const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f))

function actionlint(): string | null {
  const candidates = [process.env.ACTIONLINT, join(homedir(), 'go', 'bin', 'actionlint')]
  for (const c of candidates) if (c && existsSync(c)) return c
  const which = spawnSync('sh', ['-c', 'command -v actionlint'], { encoding: 'utf8' })
  return which.status === 0 && which.stdout.trim() ? which.stdout.trim() : null
}

interface Step {
  name?: string
  run?: string
  uses?: string
  if?: string
}
interface Workflow {
  on: Record<string, unknown>
  permissions: Record<string, string>
  jobs: Record<
    string,
    { 'runs-on': string; strategy?: { matrix: { include: Record<string, string>[] } }; steps: Step[] }
  >
}

describe('GitHub workflows', () => {
  it('pass actionlint', (ctx) => {
    const bin = actionlint()
    if (!bin) {
      console.log(
        'skipped: actionlint is not installed (go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12, or set ACTIONLINT)',
      )
      ctx.skip()
      return
    }
    const r = spawnSync(bin, ['-no-color', ...files.map((f) => join(dir, f))], {
      cwd: root,
      encoding: 'utf8',
    })
    expect(r.stdout + r.stderr).toBe('')
    expect(r.status).toBe(0)
  })

  it('release: installers for Linux, macOS and Windows, each smoke-tested, read-only token, nothing from event text in scripts', () => {
    const wf = parse(readFileSync(join(dir, 'release.yml'), 'utf8')) as Workflow
    expect(Object.keys(wf.on).sort()).toEqual(['push', 'workflow_dispatch'])
    expect(wf.permissions).toEqual({ contents: 'read' })
    const job = wf.jobs.installers!
    const include = job.strategy!.matrix.include
    expect(include.map((m) => m.os).sort()).toEqual(['macos-latest', 'ubuntu-latest', 'windows-latest'])
    expect(include.map((m) => m.targets).sort()).toEqual(['--linux AppImage deb', '--mac dmg', '--win nsis'])
    const runs = job.steps.map((s) => s.run ?? '')
    const at = (pattern: RegExp) => runs.findIndex((r) => pattern.test(r))
    // Install, build, package, then the smoke test of what was packaged, on every platform.
    expect(at(/^npm ci\b/)).toBeGreaterThanOrEqual(0)
    expect(at(/npm run build/)).toBeGreaterThan(at(/^npm ci\b/))
    expect(at(/electron-builder .*--publish never/)).toBeGreaterThan(at(/npm run build/))
    const smoke = at(/node scripts\/smoke-packaged\.mjs/)
    expect(smoke).toBeGreaterThan(at(/electron-builder/))
    expect(job.steps[smoke]!.if).toBeUndefined()
    expect(runs.some((r) => /e2e\/desktop\.e2e\.ts/.test(r))).toBe(true)
    for (const r of runs) expect(r).not.toMatch(/\$\{\{\s*github\.(event|head_ref)/)
  })
})
