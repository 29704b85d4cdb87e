// Settings: what is saved is what comes back, after a reload and after the engine restarts; a
// field cleared in the form (null or '' in the patch) is removed, not kept at its old value; a bad
// value is refused in words and a bad value in the file is dropped alone.
import { rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ApiError } from '../api/errors.ts'
import { createEngine } from './index.ts'
import { tempDbPath } from '../testing/run.ts'

const dbPath = tempDbPath()
afterAll(() => rmSync(dirname(dbPath), { recursive: true, force: true }))

const FULL = {
  dockerHost: 'tcp://127.0.0.1:2375',
  pgExportUrl: 'postgres://app@127.0.0.1:5432/bench',
  cfApi: 'https://api.cf.example.com',
  cfUsername: 'ops',
  theme: 'dark',
  ledgerRetentionDays: 30,
} as const

// [what the user cleared, the patch, the key that must be gone]
const CLEARED: [string, Record<string, null | ''>, keyof typeof FULL][] = [
  ['the Docker host (null)', { dockerHost: null }, 'dockerHost'],
  ['the Docker host (emptied)', { dockerHost: '' }, 'dockerHost'],
  ['the PostgreSQL URL', { pgExportUrl: null }, 'pgExportUrl'],
  ['the Cloud Foundry endpoint', { cfApi: '' }, 'cfApi'],
  ['the Cloud Foundry user', { cfUsername: null }, 'cfUsername'],
  ['the retention', { ledgerRetentionDays: null }, 'ledgerRetentionDays'],
]

describe('settings', () => {
  it.each(CLEARED)('clears %s, and it stays cleared after a restart', async (_what, patch, key) => {
    const host = await createEngine({ dbPath })
    try {
      await host.settings.set(FULL)
      expect(await host.settings.get()).toMatchObject(FULL)
      const saved = await host.settings.set(patch)
      expect(saved).not.toHaveProperty(key)
      const others = Object.fromEntries(Object.entries(FULL).filter(([k]) => k !== key))
      expect(saved).toMatchObject(others)
      expect(await host.settings.get()).not.toHaveProperty(key)
    } finally {
      await host.close()
    }
    const again = await createEngine({ dbPath })
    try {
      expect(await again.settings.get()).not.toHaveProperty(key)
    } finally {
      await again.close()
    }
  })

  it('clears the theme back to its default', async () => {
    const host = await createEngine({ dbPath })
    try {
      await host.settings.set({ theme: 'dark' })
      expect((await host.settings.set({ theme: null })).theme).toBe('system')
    } finally {
      await host.close()
    }
  })

  it('refuses a Docker host that is no Docker address, in words', async () => {
    const host = await createEngine({ dbPath })
    try {
      for (const bad of ['/var/run/docker.sock', 'docker.example.com', 'ftp://x:1']) {
        const err = await host.settings.set({ dockerHost: bad }).catch((e: unknown) => e)
        expect(err).toBeInstanceOf(ApiError)
        expect((err as ApiError).message).toBe(
          'settings:set: argument 0.dockerHost must be a Docker address such as unix:///var/run/docker.sock or tcp://127.0.0.1:2375',
        )
      }
      for (const good of ['unix:///run/user/1000/docker.sock', 'tcp://10.0.0.2:2376', 'ssh://me@build-box']) {
        expect((await host.settings.set({ dockerHost: good })).dockerHost).toBe(good)
      }
    } finally {
      await host.close()
    }
  })

  it('drops a bad value in the settings file and keeps the others', async () => {
    writeFileSync(
      join(dirname(dbPath), 'settings.json'),
      JSON.stringify({ dockerHost: 'not a host', cfApi: 'https://api.example.com', theme: 'purple' }),
    )
    const host = await createEngine({ dbPath })
    try {
      const s = await host.settings.get()
      expect(s).not.toHaveProperty('dockerHost')
      expect(s).toMatchObject({ cfApi: 'https://api.example.com', theme: 'system' })
    } finally {
      await host.close()
    }
  })
})
