#!/usr/bin/env node
// Entry point of the `cannonade` command. The engine is TypeScript run by Node's own type
// stripping (Node >= 22.18), so there is no build step between a change and a run.
const [major, minor] = process.versions.node.split('.').map(Number)
if (major < 22 || (major === 22 && minor < 18)) {
  process.stderr.write(`cannonade needs Node.js 22.18 or newer (this is ${process.version}).\n`)
  process.exit(2)
}
// The engine's modules compiled (types stripped) once and kept on disk, in Node's compile cache
// (os.tmpdir()/node-compile-cache; NODE_DISABLE_COMPILE_CACHE=1 turns it off): a command starts in
// about half the CPU. The runner process it forks uses the same cache (engine/runner/supervisor.ts).
const { enableCompileCache } = await import('node:module')
enableCompileCache?.()
const { main } = await import('../engine/cli/main.ts')
process.exitCode = await main(process.argv.slice(2))
