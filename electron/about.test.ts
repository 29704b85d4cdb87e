import { describe, expect, it } from 'vitest'
import { aboutText } from './about.ts'

describe('aboutText', () => {
  it('names the app, what it runs on, and where its files are', () => {
    const text = aboutText({
      name: 'Cannonade',
      version: '0.1.0',
      versions: { electron: '45.4.1', chrome: '142.0.1', node: '22.20.0', v8: '14.2' },
      platform: 'linux',
      arch: 'x64',
      dataDir: '/home/u/.config/Cannonade',
      logFile: '/home/u/.config/Cannonade/logs/cannonade.log',
    })
    expect(text.message).toBe('Cannonade 0.1.0')
    expect(text.detail.split('\n')).toEqual([
      'Electron 45.4.1',
      'Chromium 142.0.1',
      'Node.js 22.20.0',
      'V8 14.2',
      'OS linux x64',
      '',
      'Data folder: /home/u/.config/Cannonade',
      'Log file: /home/u/.config/Cannonade/logs/cannonade.log',
    ])
  })
  it('says unknown for a version it was not given', () => {
    const text = aboutText({
      name: 'C',
      version: '1',
      versions: {},
      platform: 'p',
      arch: 'a',
      dataDir: 'd',
      logFile: 'l',
    })
    expect(text.detail).toContain('Electron unknown')
  })
})
