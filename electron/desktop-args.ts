// Argument tuples of the desktop-only IPC channels (./protocol.ts), parsed in main like the Api's
// (engine/api/schemas.ts).
import { z } from 'zod'
import { SECRET_NAMES } from '../engine/config/secrets.ts'
import { desktopChannels } from './protocol.ts'

const secretName = z.enum(SECRET_NAMES)
const filePath = z.string().min(1).max(4096)

export const desktopArgSchemas = {
  [desktopChannels.secretsAvailable]: z.tuple([]),
  [desktopChannels.secretsList]: z.tuple([]),
  [desktopChannels.secretsSet]: z.tuple([secretName, z.string().min(1).max(16_384)]),
  [desktopChannels.secretsDelete]: z.tuple([secretName]),
  [desktopChannels.filesOpen]: z.tuple([filePath]),
  [desktopChannels.filesReveal]: z.tuple([filePath]),
  [desktopChannels.filesSaveAs]: z.tuple([filePath]),
} as const

export type DesktopChannel = keyof typeof desktopArgSchemas

/** Each channel's arguments by name, so a refusal names the field (engine/api/schemas.ts argNames). */
export const desktopArgNames: { readonly [C in DesktopChannel]?: readonly string[] } = {
  [desktopChannels.secretsSet]: ['name', 'value'],
  [desktopChannels.secretsDelete]: ['name'],
  [desktopChannels.filesOpen]: ['path'],
  [desktopChannels.filesReveal]: ['path'],
  [desktopChannels.filesSaveAs]: ['path'],
}
