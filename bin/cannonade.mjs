#!/usr/bin/env node
// Entry point of the `cannonade` command. The engine is TypeScript run by Node's own type
// stripping (Node >= 22.18), so there is no build step between a change and a run.
const [major, minor] = process.versions.node.split('.').map(Number)
if (major < 22 || (major === 22 && minor < 18)) {
  process.stderr.write(`cannonade needs Node.js 22.18 or newer (this is ${process.version}).\n`)
  process.exit(2)
}
const { main } = await import('../engine/cli/main.ts')
process.exitCode = await main(process.argv.slice(2))
