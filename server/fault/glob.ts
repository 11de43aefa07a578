/** `*` matches one path segment, `**` any number of segments (or none); everything else is literal. */
export function globToRegExp(glob: string): RegExp {
  let re = ''
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i] as string
    if (ch === '*') {
      if (glob[i + 1] === '*') {
        i++
        // "/**" also matches the bare prefix: /api/** matches /api
        if (re.endsWith('/')) re = `${re.slice(0, -1)}(?:/.*)?`
        else re += '.*'
      } else re += '[^/]*'
    } else re += ch.replace(/[.+?^${}()|[\]\\]/g, '\\$&')
  }
  return new RegExp(`^${re}$`)
}
