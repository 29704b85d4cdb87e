// Which URLs the shell trusts (IPC senders, navigation) and which links may leave for the browser:
// exact origins, never prefixes (Electron's checklist: "use Node's parser for URLs").
import { describe, expect, it } from 'vitest'
import { APP_ORIGIN, devOrigin, externalLink, isTrustedUrl, originOf, trustedOrigins } from './security.ts'

describe('isTrustedUrl: exact origins', () => {
  const packaged = trustedOrigins(undefined)
  const dev = trustedOrigins('http://localhost:5173/')
  it.each([
    ['app://cannonade/index.html', packaged, true],
    ['app://cannonade/assets/x.js', packaged, true],
    ['app://cannonade', packaged, true],
    ['app://cannonade.evil/index.html', packaged, false],
    ['app://cannonadex/index.html', packaged, false],
    ['app://other/index.html', packaged, false],
    ['http://localhost:5173/', packaged, false],
    ['http://localhost:5173/#/runs', dev, true],
    ['http://localhost:5173/src/main.tsx', dev, true],
    // What a startsWith check let through:
    ['http://localhost:51730/', dev, false],
    ['http://localhost:5173.evil.example/', dev, false],
    ['http://localhost:5173@evil.example/', dev, false],
    ['https://localhost:5173/', dev, false],
    ['http://127.0.0.1:5173/', dev, false],
    ['file:///etc/passwd', dev, false],
    ['about:blank', dev, false],
    ['about:srcdoc', packaged, false],
    ['', packaged, false],
    ['not a url', packaged, false],
  ])('%s → %s', (url, origins, expected) => {
    expect(isTrustedUrl(url, origins)).toBe(expected)
  })
})

describe('devOrigin: CANNONADE_DEV_URL only on loopback http', () => {
  it('accepts loopback dev servers and returns their origin', () => {
    expect(devOrigin(undefined)).toBeNull()
    expect(devOrigin('')).toBeNull()
    expect(devOrigin('http://localhost:5173/')).toBe('http://localhost:5173')
    expect(devOrigin('http://127.0.0.1:4000')).toBe('http://127.0.0.1:4000')
    expect(devOrigin('http://[::1]:5173/')).toBe('http://[::1]:5173')
  })
  it.each([
    'https://example.com/',
    'http://192.168.1.5:5173/',
    'http://localhost.evil.example:5173/',
    'file:///tmp/x',
    'nonsense',
  ])('refuses %s (the page would get the preload bridge)', (url) => {
    expect(() => devOrigin(url)).toThrow(/CANNONADE_DEV_URL/)
  })
})

describe('originOf', () => {
  it('builds origins for custom schemes Node calls opaque', () => {
    expect(originOf('app://cannonade/index.html')).toBe(APP_ORIGIN)
    expect(originOf('http://localhost:5173/x')).toBe('http://localhost:5173')
    expect(originOf('about:blank')).toBeNull()
    expect(originOf('::')).toBeNull()
  })
})

describe('externalLink: only web links leave for the browser', () => {
  it.each([
    ['https://example.com/docs', 'https://example.com/docs'],
    ['http://example.com/', 'http://example.com/'],
    ['file:///etc/passwd', null],
    ['smb://host/share', null],
    ['javascript:alert(1)', null],
    ['ms-msdt:/id PCWDiagnostic', null],
    ['app://cannonade/index.html', null],
    ['not a url', null],
  ])('%s → %s', (url, expected) => {
    expect(externalLink(url)).toBe(expected)
  })
})
