// Secrets (database and Cloud Foundry passwords, tokens) encrypted with the OS keychain through
// Electron's safeStorage, in a file next to the database. Values are decrypted only in main and
// handed to the engine process as environment variables; the page can set or forget a secret but
// never read one back. Without real OS encryption (Linux "basic_text") nothing is stored.
import { safeStorage } from 'electron'
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { SecretName } from '../engine/config/secrets.ts'

type Stored = Partial<Record<SecretName, string>>

export interface SecretStore {
  available(): boolean
  names(): SecretName[]
  set(name: SecretName, value: string): void
  delete(name: SecretName): void
  /** Decrypted values, for the engine process only. */
  values(): Record<string, string>
}

export function openSecretStore(dir: string): SecretStore {
  const file = join(dir, 'secrets.json')
  const read = (): Stored => {
    if (!existsSync(file)) return {}
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as Stored
    } catch {
      return {}
    }
  }
  const write = (data: Stored) => {
    // Write then rename: a crash mid-write must not lose every secret.
    writeFileSync(`${file}.tmp`, JSON.stringify(data, null, 2), { mode: 0o600 })
    renameSync(`${file}.tmp`, file)
  }
  const available = () =>
    safeStorage.isEncryptionAvailable() &&
    (process.platform !== 'linux' || safeStorage.getSelectedStorageBackend() !== 'basic_text')
  return {
    available,
    names: () => Object.keys(read()) as SecretName[],
    set(name, value) {
      if (!available())
        throw new Error(
          'no OS encryption available: secrets are not stored (set them as environment variables instead)',
        )
      write({ ...read(), [name]: safeStorage.encryptString(value).toString('base64') })
    },
    delete(name) {
      const data = read()
      delete data[name]
      write(data)
    },
    values() {
      if (!available()) return {}
      const out: Record<string, string> = {}
      for (const [name, blob] of Object.entries(read())) {
        try {
          out[name] = safeStorage.decryptString(Buffer.from(blob, 'base64'))
        } catch {
          // Encrypted by another user or machine: skip it rather than fail the engine start.
        }
      }
      return out
    },
  }
}
