// Agents' requests are the run's requests (issue 19, item 3) on the run's page: a run whose two
// local agents kept their raw ledgers (`--raw keep`, by the real `cannonade` command) says on its
// page where each agent's rows are and the command that brings them in; the CSV of every request
// refuses to pass for complete, naming the same; the JSON export says what it lacks. After
// `cannonade import ledger` of each, the page counts every request and names nothing elsewhere.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startTarget } from '../engine/testing/target.ts'
import { RunDetailPage } from './pages/pages.ts'
import { appPerTest } from './support/app.ts'
import { cannonade } from './support/cli.ts'

const { start } = appPerTest()

describe("agents' kept raw ledgers on the run's page", () => {
  it('says where they are and how to bring them in, until they are in', async () => {
    const target = await startTarget({ delayMs: 1 })
    const dataDir = mkdtempSync(join(tmpdir(), 'cannonade-ledger-e2e-'))
    const db = join(dataDir, 'cannonade.db')
    const config = join(dataDir, 'kept.yaml')
    writeFileSync(
      config,
      `version: 1\nname: kept ledgers\ntargets:\n  - { name: t, url: "${target.url}/x" }\n` +
        `load: { connections: 4, duration: 1 }\ncooldownSeconds: 0\n`,
    )
    const json = join(dataDir, 'summary.json')
    const ran = await cannonade(['run', config, '--agents', '2', '--raw', 'keep', '--db', db, '--json', json])
    await target.close()
    expect(ran.code, ran.stderr).toBe(0)
    const summary = JSON.parse(readFileSync(json, 'utf8')) as {
      runId: number
      targets: { sent: number }[]
      distribution: { perAgent: { ledger: { path: string } }[] }
    }
    const sent = summary.targets.reduce((n, t) => n + t.sent, 0).toLocaleString('en-US')
    const paths = summary.distribution.perAgent.map((a) =>
      a.ledger.path.slice(a.ledger.path.indexOf(':') + 1),
    )
    const command = `cannonade import ledger FILE --run ${summary.runId}`

    const app = await start({ dataDir })
    await app.open(`#/runs/${summary.runId}`)
    const detail = new RunDetailPage(app.page)
    const elsewhere = detail.ledgerElsewhere
    await elsewhere.waitFor()
    const said = (await elsewhere.textContent()) ?? ''
    expect(said).toContain(`${sent} requests are not in this database`)
    expect(said).toContain(command)
    for (const p of paths) expect(said).toContain(p)
    await app.screenshot('46-detail-ledger-elsewhere')

    await detail.exportCsv()
    await detail.exportError.waitFor()
    expect(await detail.exportError.textContent()).toContain(command)
    await detail.exportJson()
    const lacking = detail.jsonMissing
    await lacking.waitFor()
    expect(await lacking.textContent()).toContain(
      `${sent} requests of run ${summary.runId} are not in this database`,
    )

    for (const p of paths) {
      const imported = await cannonade(['import', 'ledger', p, '--run', String(summary.runId), '--db', db])
      expect(imported.code, imported.stderr).toBe(0)
    }
    await app.page.reload()
    await detail.ledgerSize.waitFor()
    expect(await detail.ledgerSize.textContent()).toContain(`${sent} requests`)
    expect(await detail.ledgerElsewhere.count()).toBe(0)
  })
})
