/**
 * Reads the copy-paste examples out of the tester's guide (docs/testing.md), so a test can run
 * them literally against a started server. Only the small part of the shell the guide uses is
 * understood: words, '…' and "…" quoting, `\` line continuations, `# comments`, `$VAR`, `export
 * K=V` and `VAR=$(command)`.
 */

export interface CodeBlock {
  readonly lang: string
  readonly text: string
  /** 1-based line of the opening fence, for messages. */
  readonly line: number
}

/** Every fenced block of a Markdown text, in order. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = []
  const lines = markdown.split('\n')
  let open: { lang: string; line: number; body: string[] } | null = null
  for (const [i, line] of lines.entries()) {
    const fence = /^```(\w*)\s*$/.exec(line)
    if (!open && fence) open = { lang: fence[1] ?? '', line: i + 1, body: [] }
    else if (open && /^```\s*$/.test(line)) {
      blocks.push({ lang: open.lang, text: open.body.join('\n'), line: open.line })
      open = null
    } else if (open) open.body.push(line)
  }
  return blocks
}

/** The title of the `## ` section a line (1-based) is in, or null before the first. */
export function sectionOf(markdown: string, line: number): string | null {
  let title: string | null = null
  for (const [i, text] of markdown.split('\n').entries()) {
    if (i + 1 > line) break
    const m = /^## (.+)$/.exec(text)
    if (m?.[1]) title = m[1].trim()
  }
  return title
}

/** One command line of a shell block. */
export interface ShellCommand {
  /** The line as written (continuations joined), for messages. */
  readonly source: string
  /** 1-based line in the document. */
  readonly line: number
  /** `NAME=$(…)`: the variable the command's output is saved in. */
  readonly assign: string | null
  /** Words before expansion: each is a list of parts, literal or `$VAR`. */
  readonly words: Word[]
  /** The trailing comment, without `#`. */
  readonly comment: string
}

type Part = { kind: 'text'; text: string } | { kind: 'var'; name: string }
export type Word = Part[]

/**
 * The commands written in the text itself, outside fenced blocks, as inline code: `npm run …`
 * or `curl …` (a table's "try it" column, a command in a sentence). A span ending in `…` is a
 * shape, not a command, and is left out.
 */
export function inlineCommands(markdown: string): ShellCommand[] {
  const out: ShellCommand[] = []
  let fenced = false
  for (const [i, line] of markdown.split('\n').entries()) {
    if (/^```/.test(line)) fenced = !fenced
    if (fenced || /^```/.test(line)) continue
    for (const m of line.matchAll(/`((?:npm run|curl) [^`]*)`/g)) {
      const source = m[1] ?? ''
      if (source.endsWith('…')) continue
      out.push({ source, line: i + 1, assign: null, words: splitWords(source).words, comment: '' })
    }
  }
  return out
}

/** The commands of a shell block; `startLine` is the line of the block's fence. */
export function shellCommands(text: string, startLine = 0): ShellCommand[] {
  const out: ShellCommand[] = []
  const raw = text.split('\n')
  for (let i = 0; i < raw.length; i++) {
    const first = i
    let line = raw[i] ?? ''
    while (line.endsWith('\\') && i + 1 < raw.length) {
      i++
      line = `${line.slice(0, -1)} ${(raw[i] ?? '').trim()}`
    }
    if (line.trim() === '' || line.trim().startsWith('#')) continue
    const sub = /^\s*([A-Za-z_]\w*)=\$\((.*?)\)\s*(#.*)?$/.exec(line)
    const body = sub ? (sub[2] ?? '') : line
    const { words, comment } = splitWords(body)
    out.push({
      source: line.trim(),
      line: startLine + first + 2,
      assign: sub ? (sub[1] ?? null) : null,
      words,
      comment: sub ? (sub[3] ?? '').replace(/^#\s*/, '') : comment,
    })
  }
  return out
}

/** Splits one line into words, keeping `$VAR` references apart so they can be filled later. */
export function splitWords(line: string): { words: Word[]; comment: string } {
  const words: Word[] = []
  let word: Word | null = null
  const text = (t: string) => {
    word ??= []
    const last = word[word.length - 1]
    if (last?.kind === 'text') last.text += t
    else word.push({ kind: 'text', text: t })
  }
  const variable = (s: string, at: number): number => {
    const m = /^\$(?:\{(\w+)\}|(\w+))/.exec(s.slice(at))
    if (!m) {
      text('$')
      return at + 1
    }
    word ??= []
    word.push({ kind: 'var', name: m[1] ?? m[2] ?? '' })
    return at + m[0].length
  }
  let i = 0
  while (i < line.length) {
    const ch = line[i] as string
    if (/\s/.test(ch)) {
      if (word) words.push(word)
      word = null
      i++
    } else if (ch === '#' && word === null) {
      return { words, comment: line.slice(i + 1).trim() }
    } else if (ch === "'") {
      const end = line.indexOf("'", i + 1)
      if (end < 0) throw new Error(`unclosed ' in: ${line}`)
      text(line.slice(i + 1, end))
      i = end + 1
    } else if (ch === '"') {
      i++
      word ??= []
      while (i < line.length && line[i] !== '"') {
        if (line[i] === '\\' && i + 1 < line.length) {
          text(line[i + 1] as string)
          i += 2
        } else if (line[i] === '$') i = variable(line, i)
        else {
          text(line[i] as string)
          i++
        }
      }
      if (i >= line.length) throw new Error(`unclosed " in: ${line}`)
      i++
    } else if (ch === '\\' && i + 1 < line.length) {
      text(line[i + 1] as string)
      i += 2
    } else if (ch === '$') {
      i = variable(line, i)
    } else {
      text(ch)
      i++
    }
  }
  if (word) words.push(word)
  return { words, comment: '' }
}

/** A word with its variables filled in; an unset variable is an error, as with `set -u`. */
export function expandWord(word: Word, env: Record<string, string | undefined>): string {
  return word
    .map((p) => {
      if (p.kind === 'text') return p.text
      const value = env[p.name]
      if (value === undefined) throw new Error(`$${p.name} is not set`)
      return value
    })
    .join('')
}
