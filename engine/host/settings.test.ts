// Settings: what is saved is what comes back, after a reload and after the engine restarts; a
// field cleared in the form (null or '' in the patch) is removed, not kept at its old value; a bad
// value is refused in words and a bad value in the file is dropped alone.
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ApiError } from '../api/errors.ts'
import { createEngine } from './index.ts'
import { tempDbPath } from '../testing/run-config.ts'

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
          'settings:set: patch.dockerHost must be a Docker address such as unix:///var/run/docker.sock or tcp://127.0.0.1:2375',
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

  // Issue 20, item 6: every form of a password a PostgreSQL client reads, as pg reads it.
  // [form, field, value, what the message names, what the cleaned URL is (null: dropped)]
  const SECRET = 'hunter2secret'
  const FORMS: [string, 'pgExportUrl' | 'dockerHost' | 'cfApi', string, string, string | null][] = [
    ['user part', 'pgExportUrl', `postgres://u:${SECRET}@h/db`, 'user part', 'postgres://u@h/db'],
    [
      'user part, postgresql scheme',
      'pgExportUrl',
      `postgresql://u:${SECRET}@h:5432/db`,
      'user part',
      'postgresql://u@h:5432/db',
    ],
    [
      'user part, two ports',
      'pgExportUrl',
      `postgres://u:${SECRET}@h:5432:99/db`,
      'user part',
      null, // pg cannot read it: the setting is dropped
    ],
    [
      'user part, encoded @',
      'pgExportUrl',
      `postgres://u:${SECRET}%40x@h/db`,
      'user part',
      'postgres://u@h/db',
    ],
    [
      'password= query',
      'pgExportUrl',
      `postgresql://u@h/db?password=${SECRET}`,
      'password parameter',
      'postgresql://u@h/db',
    ],
    [
      'PASSWORD= query',
      'pgExportUrl',
      `postgres://u@h/db?PASSWORD=${SECRET}`,
      'password parameter',
      'postgres://u@h/db',
    ],
    [
      'sslpassword= query',
      'pgExportUrl',
      `postgres://u@h/db?sslpassword=${SECRET}`,
      'password parameter',
      'postgres://u@h/db',
    ],
    [
      'password among others',
      'pgExportUrl',
      `postgres://u@h/db?application_name=x&password=${SECRET}&connect_timeout=5`,
      'password parameter',
      'postgres://u@h/db?application_name=x&connect_timeout=5',
    ],
    [
      'options -c password',
      'pgExportUrl',
      `postgres://u@h/db?options=-c%20password%3D${SECRET}`,
      'options',
      'postgres://u@h/db',
    ],
    [
      'options PGPASSWORD',
      'pgExportUrl',
      `postgres://u@h/db?options=PGPASSWORD%3D${SECRET}`,
      'options',
      'postgres://u@h/db',
    ],
    [
      'encoded key',
      'pgExportUrl',
      `postgres://u@h/db?pass%77ord=${SECRET}`,
      'password parameter',
      'postgres://u@h/db',
    ],
    [
      'Docker host user part',
      'dockerHost',
      `tcp://u:${SECRET}@127.0.0.1:2375`,
      'user part',
      'tcp://u@127.0.0.1:2375',
    ],
    [
      'Cloud Foundry user part',
      'cfApi',
      `https://u:${SECRET}@api.cf.example.com`,
      'user part',
      'https://u@api.cf.example.com',
    ],
    [
      'Cloud Foundry password query',
      'cfApi',
      `https://api.cf.example.com/?password=${SECRET}`,
      'password parameter',
      'https://api.cf.example.com/',
    ],
  ]

  it(`refuses every form of a password when set (hostile cases tried: ${FORMS.length})`, async () => {
    const host = await createEngine({ dbPath })
    try {
      for (const [form, field, value, where] of FORMS) {
        const err = await host.settings.set({ [field]: value }).catch((e: unknown) => e)
        expect(err, form).toBeInstanceOf(ApiError)
        expect((err as ApiError).message, form).toMatch(new RegExp(`${field} holds a password in .*${where}`))
        expect(JSON.stringify(await host.settings.get()), form).not.toContain(SECRET)
      }
    } finally {
      await host.close()
    }
    expect(readFileSync(join(dirname(dbPath), 'settings.json'), 'utf8')).not.toContain(SECRET)
  })

  it.each(FORMS)(
    'strips %s from an older settings file, on disk too',
    async (_form, field, value, _w, clean) => {
      const file = join(dirname(dbPath), 'settings.json')
      writeFileSync(file, JSON.stringify({ theme: 'dark', [field]: value }))
      const host = await createEngine({ dbPath })
      try {
        const got = await host.settings.get()
        expect(JSON.stringify(got)).not.toContain(SECRET)
        expect(got.theme).toBe('dark')
        if (clean === null) expect(got).not.toHaveProperty(field)
        else expect(got[field]).toBe(clean)
      } finally {
        await host.close()
      }
      expect(readFileSync(file, 'utf8')).not.toContain(SECRET)
    },
  )

  it('keeps a PostgreSQL URL without a password, and refuses one pg cannot read', async () => {
    const host = await createEngine({ dbPath })
    try {
      const good = 'postgres://archive@db.example:5432/runs?sslmode=verify-full&application_name=cannonade'
      expect((await host.settings.set({ pgExportUrl: good })).pgExportUrl).toBe(good)
      const err = await host.settings
        .set({ pgExportUrl: 'postgres://u@h:5432:99/db' })
        .catch((e: unknown) => e)
      expect((err as ApiError).message).toBe(
        'settings:set: patch.pgExportUrl must be a PostgreSQL URL such as postgres://user@host:5432/database',
      )
    } finally {
      await host.close()
    }
  })
})
