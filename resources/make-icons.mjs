#!/usr/bin/env node
// Renders resources/icon.svg to the PNGs electron-builder and the window use (it derives .icns and
// .ico from icon.png). Uses the same headless Chromium as the e2e tests. Re-run after editing the SVG.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'

const here = (name) => fileURLToPath(new URL(name, import.meta.url))
const svg = readFileSync(here('icon.svg'), 'utf8')
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
})
try {
  for (const [size, file] of [
    [1024, 'icon.png'],
    [256, 'icons/256x256.png'],
    [128, 'icons/128x128.png'],
    [64, 'icons/64x64.png'],
    [32, 'icons/32x32.png'],
  ]) {
    const page = await browser.newPage({ viewport: { width: size, height: size } })
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}svg{width:${size}px;height:${size}px;display:block}</style>${svg}`,
    )
    await page.screenshot({ path: here(file), omitBackground: true })
    await page.close()
  }
} finally {
  await browser.close()
}
console.log('icons written to resources/')
