// Makes this folder's schemas from the PyPI package kubernetes-validate (Apache-2.0), which ships
// Kubernetes' JSON schemas per version: each kind we render becomes one self-contained file
// (its definitions under $defs, references made local), so kubeconform needs no network.
//   pip download --no-deps kubernetes-validate==1.37.0 && unzip it, then
//   node extract.mjs <unzipped>/kubernetes_validate/kubernetes-json-schema/v1.31.0-local-strict
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const src = process.argv[2]
const defs = JSON.parse(readFileSync(join(src, '_definitions.json'), 'utf8')).$defs
const local = (text) => text.replaceAll('/api/_definitions.json#/$defs/', '#/$defs/')
for (const file of ['job-batch-v1.json', 'secret-v1.json']) {
  const schema = JSON.parse(local(readFileSync(join(src, file), 'utf8')))
  const needed = {}
  const walk = (node) => {
    if (Array.isArray(node)) return node.forEach(walk)
    if (!node || typeof node !== 'object') return
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')) {
        const name = v.slice('#/$defs/'.length)
        if (!(name in needed)) {
          needed[name] = JSON.parse(local(JSON.stringify(defs[name])))
          walk(needed[name])
        }
      } else walk(v)
    }
  }
  walk(schema)
  schema.$defs = Object.fromEntries(Object.entries(needed).sort(([a], [b]) => a.localeCompare(b)))
  writeFileSync(file, JSON.stringify(schema, null, 1) + '\n')
}
