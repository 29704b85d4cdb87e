export function electronBinary(root: string): string | null
