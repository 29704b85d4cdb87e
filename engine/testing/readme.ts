// README.md's "Query the ledger yourself", read as a test reads it: the schema version it states,
// the columns its table names per table, and its example queries by name (`<!-- query: NAME -->`
// before a sql block). Tests hold the section to the database (engine/store/ledger-schema.test.ts)
// and run its queries against a real run (engine/cli/ledger-queries.load.test.ts).
import { readFileSync } from 'node:fs'

export interface LedgerDoc {
  version: number
  /** Per table, the columns the section names. */
  columns: Record<string, string[]>
  /** The example queries, by name; `:run` is the run's id. */
  queries: Record<string, string>
}

export function ledgerDoc(): LedgerDoc {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
  const start = readme.indexOf('\n## Query the ledger yourself\n')
  if (start < 0) throw new Error('README.md has no "Query the ledger yourself" section')
  const end = readme.indexOf('\n## ', start + 1)
  const section = readme.slice(start, end < 0 ? undefined : end)
  const version = /\*\*Schema version (\d+)\*\*/.exec(section)?.[1]
  if (!version) throw new Error('the section states no "**Schema version N**"')
  const columns: Record<string, string[]> = {}
  for (const [, table, cell] of section.matchAll(/^\| `(\w+)` \| [^|]+ \| ([^|]+) \|$/gm)) {
    // Values in parentheses (statuses, sources, units) are not columns.
    const names = cell!.replace(/\([^)]*\)/g, '').matchAll(/`(\w+)`/g)
    columns[table!] = [...names].map((m) => m[1]!)
  }
  const queries: Record<string, string> = {}
  for (const [, name, sql] of section.matchAll(/<!-- query: ([\w-]+) -->\n```sql\n([\s\S]*?)```/g))
    queries[name!] = sql!
  return { version: Number(version), columns, queries }
}
