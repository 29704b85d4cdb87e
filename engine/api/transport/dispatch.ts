// Channel → Api method, for every transport that receives calls by name (HTTP routes, the Electron
// utility process). Arguments are parsed with `argSchemas` before the method sees them (a call from
// a page or the network is untrusted input); errors leave as a plain {code, message, field} body
// that keeps its code. Pure module: no Node imports, so the Electron main process can use it too.
import type { z } from 'zod'
import type { Api } from '../api.ts'
import { callMethod, type Channel, type ParamsOf } from '../channels.ts'
import { parseArgs, type argSchemas } from '../schemas.ts'

/** Parse `rawArgs` for `channel` and call the matching Api method. Throws ApiError on bad input. */
export async function dispatch<C extends Channel>(api: Api, channel: C, rawArgs: unknown): Promise<unknown> {
  // The parsed tuple is the schema's output, which is what the method's parameters accept.
  const args = parseArgs(channel, rawArgs) as unknown as ParamsOf<C>
  return callMethod(api, channel, args)
}

// The compiler checks that what each schema parses to is what its Api method accepts.
type ParsedFits = {
  [C in Channel]: z.output<(typeof argSchemas)[C]> extends ParamsOf<C> ? true : false
}[Channel]
export type DispatchChecks = ParsedFits extends true ? true : never
const dispatchChecks: DispatchChecks = true
void dispatchChecks
