#!/usr/bin/env node
// The test stages (CONTRIBUTING.md "Tests"). A test file's name says what it needs, and its stage:
//   npm test            the fast stage, after every change: typecheck and lint (side by side), the
//                       pure and fixture tests (*.test.ts, in parallel), the short load tests
//                       (*.load.test.ts, one file at a time)
//   npm run test:all    every stage: the fast stage, then the long fixture tests (*.long.test.ts, in
//                       parallel), the long load tests (*.slow.test.ts), PostgreSQL
//                       (*.pg.test.ts), Docker (*.docker.test.ts), end-to-end in Chromium
//                       (e2e/*.e2e.ts) and packaging (e2e/*.package.ts)
//   node scripts/test.mjs --stage NAME [--stage NAME…]   the stages named (see STAGES below)
// Stops at the first failing stage, saying which; at the end prints each stage's time and its test
// counts (passed, skipped, failed), read from vitest's JSON report. A stage that changed the
// working tree (a file git tracks or would track: scripts/worktree.mjs) fails, naming the files;
// tests write under artifacts/e2e/ or a temporary folder (CANNONADE_WRITE_FIXTURES=1 excepted).
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { changedFiles, dirtyFiles } from './worktree.mjs'

const [major, minor] = process.versions.node.split('.').map(Number)
if (major < 22 || (major === 22 && minor < 18)) {
  console.error(`the tests need Node.js 22.18 or newer (this is ${process.version}); see README.md`)
  process.exit(2)
}

const root = fileURLToPath(new URL('..', import.meta.url))
const reports = mkdtempSync(join(tmpdir(), 'cannonade-test-'))
const vitest = (stage, args) => ({
  name: stage,
  run: [
    [
      'npx',
      [
        'vitest',
        'run',
        ...args,
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${join(reports, `${stage}.json`)}`,
      ],
    ],
  ],
  report: join(reports, `${stage}.json`),
})

/** Every stage, in order of cost. `fast` marks those of `npm test`. */
const STAGES = [
  {
    name: 'check',
    fast: true,
    what: 'typecheck (engine, renderer, electron) and lint (ESLint, Prettier), side by side',
    parallel: true,
    run: [
      ['npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']],
      ['npx', ['tsc', '-p', 'tsconfig.renderer.json']],
      ['npx', ['tsc', '-p', 'tsconfig.electron.json']],
      ['npx', ['eslint', '.']],
      ['npx', ['prettier', '--check', '--log-level', 'warn', '.']],
    ],
  },
  // Pure and fixture tests share 2 cores well: most of their time is waiting on processes and sockets.
  {
    ...vitest('unit', ['--project', 'unit', '--maxWorkers', '4']),
    fast: true,
    what: 'pure and fixture tests, in parallel',
  },
  // Two load tests at once would measure each other.
  {
    ...vitest('load', ['--project', 'load', '--no-file-parallelism']),
    fast: true,
    what: 'short load tests, one file at a time',
  },
  {
    ...vitest('long', ['--project', 'long', '--maxWorkers', '4']),
    what: 'fixture tests too long for the fast stage (many processes, kill -9, a full disk), in parallel',
  },
  {
    ...vitest('slow', ['--project', 'slow', '--no-file-parallelism']),
    what: 'long load tests, one file at a time',
  },
  {
    ...vitest('pg', ['--project', 'pg', '--maxWorkers', '2']),
    what: 'PostgreSQL tests (a throwaway cluster each)',
  },
  // Stacks build images and start JVMs: one file at a time.
  {
    ...vitest('docker', ['--project', 'docker', '--no-file-parallelism']),
    what: 'Docker tests (stacks, agents, templates)',
  },
  {
    name: 'e2e',
    what: 'end-to-end in Chromium (web mode; the desktop shell on the Electron stand-in)',
    run: [
      [
        process.execPath,
        [
          'scripts/e2e.mjs',
          '--project',
          'e2e',
          '--maxWorkers',
          '2',
          '--reporter=default',
          '--reporter=json',
          `--outputFile.json=${join(reports, 'e2e.json')}`,
        ],
      ],
    ],
    report: join(reports, 'e2e.json'),
  },
  {
    name: 'package',
    what: 'packaging (electron-builder, no network)',
    run: [
      [
        process.execPath,
        [
          'scripts/e2e.mjs',
          '--no-build',
          '--project',
          'package',
          '--reporter=default',
          '--reporter=json',
          `--outputFile.json=${join(reports, 'package.json')}`,
        ],
      ],
    ],
    report: join(reports, 'package.json'),
  },
]

const args = process.argv.slice(2)
const named = args.flatMap((a, i) => (a === '--stage' ? [args[i + 1]] : []))
for (const n of named)
  if (!STAGES.some((s) => s.name === n)) {
    console.error(`--stage ${n}: no such stage (${STAGES.map((s) => s.name).join(', ')})`)
    process.exit(2)
  }
const all = args.includes('--all')
const chosen = STAGES.filter((s) => (named.length ? named.includes(s.name) : all || s.fast))

function exec(cmd, cmdArgs, capture) {
  return new Promise((resolve) => {
    const child = spawn(cmd, cmdArgs, {
      stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: process.env,
    })
    let out = ''
    if (capture) {
      child.stdout.on('data', (d) => (out += d))
      child.stderr.on('data', (d) => (out += d))
    }
    child.on('close', (code, signal) => resolve({ code: code ?? 1, signal, out }))
    child.on('error', (err) => resolve({ code: 1, signal: null, out: `${out}${err.message}\n` }))
  })
}

/** Passed, skipped and failed tests of a stage, from its vitest JSON report. */
function counts(report) {
  if (!report || !existsSync(report)) return null
  const r = JSON.parse(readFileSync(report, 'utf8'))
  return {
    passed: r.numPassedTests,
    skipped: r.numPendingTests + r.numTodoTests,
    failed: r.numFailedTests,
    files: r.numTotalTestSuites,
  }
}

/** False when the stage changed the working tree (and that was not asked for); says what. */
function leftAsFound(stage, before) {
  const after = before && dirtyFiles(root)
  const changed = after ? changedFiles(before, after) : []
  if (changed.length === 0) return true
  const asked = process.env.CANNONADE_WRITE_FIXTURES === '1'
  console.log(
    `--- ${stage} ${asked ? 'wrote (CANNONADE_WRITE_FIXTURES=1)' : "changed the working tree (tests write under artifacts/e2e/ or a temporary folder; artifacts/screens/ and docs/screens/ are `npm run docs:screens`'s)"}:\n    ${changed.join('\n    ')}`,
  )
  return asked
}

const summary = []
let failed = null
for (const stage of chosen) {
  const cmds = stage.run.map(([c, a]) => `${c} ${a.join(' ')}`)
  console.log(`\n=== ${stage.name}: ${stage.what}\n    ${cmds.join('\n    ')}`)
  const started = Date.now()
  const tree = dirtyFiles(root)
  let ok = true
  if (stage.parallel) {
    const results = await Promise.all(stage.run.map(([c, a]) => exec(c, a, true)))
    results.forEach((r, i) => {
      const text = r.out.split('\n').filter((l) => l && !/^npm warn/.test(l))
      if (r.code !== 0) {
        ok = false
        console.log(`--- ${cmds[i]} FAILED (exit ${r.code})\n${text.join('\n')}`)
      } else console.log(`--- ${cmds[i]}: ok`)
    })
  } else {
    for (const [c, a] of stage.run) if ((await exec(c, a, false)).code !== 0) ok = false
  }
  if (!leftAsFound(stage.name, tree)) ok = false
  const secs = (Date.now() - started) / 1000
  summary.push({ stage: stage.name, secs, ok, tests: counts(stage.report) })
  console.log(`=== ${stage.name} ${ok ? 'passed' : 'FAILED'} in ${secs.toFixed(1)} s`)
  if (!ok) {
    failed = stage.name
    break
  }
}
rmSync(reports, { recursive: true, force: true })

console.log('\nstage      time      passed  skipped  failed')
for (const s of summary) {
  const t = s.tests
  console.log(
    `${s.stage.padEnd(10)} ${`${s.secs.toFixed(0)} s`.padStart(6)}  ${t ? `${String(t.passed).padStart(8)} ${String(t.skipped).padStart(8)} ${String(t.failed).padStart(7)}` : '       -        -       -'}`,
  )
}
const total = summary.reduce((s, x) => s + x.secs, 0)
console.log(`${'total'.padEnd(10)} ${`${total.toFixed(0)} s`.padStart(6)}`)
if (failed) {
  console.error(`\n${failed} FAILED: later stages did not run`)
  process.exit(1)
}
