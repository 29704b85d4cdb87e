// What each installer target asks of package.json and electron-builder.yml before it builds
// anything (the deb target stopped at "Please specify project homepage"; a rebuild of native
// modules stopped at cpu-features). e2e/app.package.ts packs the app itself.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'

const root = fileURLToPath(new URL('..', import.meta.url))
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown> & {
  author: { name?: string; email?: string }
  dependencies: Record<string, string>
  devDependencies: Record<string, string>
}
const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as Record<string, unknown> & {
  linux: { category: string; maintainer: string; icon: string }
  mac: { category: string; icon: string }
  win: { icon: string }
  deb: { depends: string[] }
  files: string[]
  asarUnpack: string[]
}

/** Width and height of a PNG, from its header. */
function pngSize(path: string): [number, number] {
  const b = readFileSync(path)
  expect(b.subarray(1, 4).toString('latin1')).toBe('PNG')
  return [b.readUInt32BE(16), b.readUInt32BE(20)]
}

describe('installer configuration', () => {
  it('package.json has what deb, AppImage, dmg and nsis put in their metadata', () => {
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+$/)
    expect(pkg.description).toEqual(expect.any(String))
    expect(pkg.homepage).toMatch(/^https:\/\//)
    expect(pkg.author.name).toBeTruthy()
    expect(pkg.author.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/)
    expect(pkg.license).toBe('MIT')
    expect(pkg.desktopName).toBe('cannonade.desktop')
    // electron-builder reads Electron's version from a devDependency; the app never ships it.
    expect(pkg.devDependencies.electron).toBeTruthy()
    expect(pkg.dependencies.electron).toBeUndefined()
    // Bundled by Vite into the renderer: not shipped a second time in node_modules.
    for (const lib of ['react', 'react-dom', 'recharts']) expect(pkg.dependencies[lib]).toBeUndefined()
  })

  it('no native rebuild (no Electron headers, no compiler): better-sqlite3 ships Node-API prebuilds', () => {
    expect(config.npmRebuild).toBe(false)
    expect(config.buildDependenciesFromSource).toBe(false)
    expect(config.asarUnpack).toContain('node_modules/better-sqlite3/**')
    expect(config.files).toContain('!node_modules/cpu-features/**')
    expect(config.files).toContain('!node_modules/better-sqlite3/prebuilds/!(${platform}*)')
    const prebuilds = JSON.parse(
      readFileSync(join(root, 'node_modules/better-sqlite3/package.json'), 'utf8'),
    ) as { files: string[] }
    expect(prebuilds.files).toContain('prebuilds/**')
  })

  it('each target has its fields and icons', () => {
    expect(config.appId).toMatch(/^[a-z]+(\.[a-z-]+)+$/)
    expect(config.productName).toBe('Cannonade')
    expect(config.linux.category).toBe('Development')
    expect(config.linux.maintainer).toMatch(/^.+ <[^@\s]+@[^@\s]+>$/)
    expect(config.deb.depends).toContain('libnss3')
    for (const size of [32, 64, 128, 256])
      expect(pngSize(join(root, config.linux.icon, `${size}x${size}.png`))).toEqual([size, size])
    expect(config.mac.category).toMatch(/^public\.app-category\./)
    const [macW, macH] = pngSize(join(root, config.mac.icon))
    expect(Math.min(macW, macH)).toBeGreaterThanOrEqual(512)
    const [winW] = pngSize(join(root, config.win.icon))
    expect(winW).toBeGreaterThanOrEqual(256)
  })
})
