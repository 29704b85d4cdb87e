export function findPackaged(dir?: string, platform?: NodeJS.Platform): string | null
