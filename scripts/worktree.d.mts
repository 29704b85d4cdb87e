export function dirtyFiles(root: string): Map<string, string> | null
export function changedFiles(before: Map<string, string>, after: Map<string, string>): string[]
