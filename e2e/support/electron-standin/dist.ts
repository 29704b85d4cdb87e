// ELECTRON STAND-IN (test harness, not Electron): a folder laid out like an unpacked Linux
// Electron distribution, for electron-builder's `electronDist` (the packaging test). Its
// "electron" executable is a shell script that says it is a stand-in and exits 1: it is never run
// as Electron. It carries Electron's fuse wire (the sentinel and one byte per fuse, set to
// Electron's defaults) so electron-builder can flip the fuses the config asks for, and the test
// can read them back with @electron/fuses, exactly as on a real binary.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** @electron/fuses' sentinel: the fuse wire follows it (version byte, length byte, one byte per fuse). */
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'
/**
 * Electron's defaults, in FuseV1Options order: RunAsNode on, CookieEncryption off,
 * NodeOptionsEnvironmentVariable on, NodeCliInspectArguments on, EmbeddedAsarIntegrityValidation
 * off, OnlyLoadAppFromAsar off, LoadBrowserProcessSpecificV8Snapshot off,
 * GrantFileProtocolExtraPrivileges on.
 */
export const DEFAULT_FUSES = '10110001'

export function makeStandInElectronDist(dir: string, version: string): string {
  mkdirSync(join(dir, 'locales'), { recursive: true })
  mkdirSync(join(dir, 'resources'), { recursive: true })
  const script = Buffer.concat([
    Buffer.from(
      '#!/bin/sh\n' +
        '# ELECTRON STAND-IN: a packaging-test fixture laid out like an Electron distribution. Not Electron.\n' +
        `# fuse wire: ${SENTINEL}`,
    ),
    Buffer.from([1, DEFAULT_FUSES.length]),
    Buffer.from(`${DEFAULT_FUSES}\n`),
    Buffer.from(
      'echo "this is a stand-in for the Electron executable (packaging test), not Electron" >&2\nexit 1\n',
    ),
  ])
  writeFileSync(join(dir, 'electron'), script)
  chmodSync(join(dir, 'electron'), 0o755)
  writeFileSync(join(dir, 'version'), `v${version}`)
  writeFileSync(join(dir, 'LICENSE'), 'stand-in\n')
  writeFileSync(join(dir, 'LICENSES.chromium.html'), '<p>stand-in</p>\n')
  for (const name of [
    'resources.pak',
    'chrome_100_percent.pak',
    'icudtl.dat',
    'snapshot_blob.bin',
    'v8_context_snapshot.bin',
  ])
    writeFileSync(join(dir, name), '')
  writeFileSync(join(dir, 'locales', 'en-US.pak'), '')
  return dir
}
