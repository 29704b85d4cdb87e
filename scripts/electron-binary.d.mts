export function executableIn(platform?: NodeJS.Platform): string
export function electronBinary(root: string, env?: NodeJS.ProcessEnv): string | null
