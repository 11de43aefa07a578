import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { FaultRuleInput, Recording, recordStartSchema, ScenarioInput } from '@shared/emu-control'
import type { z } from 'zod'
import { globToRegExp } from './glob'
import { type FieldCheck, fieldChecks, headerFields, queryFields } from './request-fields'

type StartInput = z.output<typeof recordStartSchema>

interface Answer {
  method: string
  path: string
  query: Record<string, string>
  status: number
  contentType: string | undefined
  body: unknown
}

const SECRET_KEY = /token|pass|secret|pwd/i
/** Most answers one recording keeps. */
const MAX_ANSWERS = 1000

function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact)
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) ? '[redacted]' : redact(v)]),
    )
  }
  return value
}

/**
 * Records what matched calls were answered (by the upstream in proxy mode, by the emulator
 * otherwise) and writes them as a scenario of stub rules: per method, path and query, the answers
 * in order (`nth`), the last one repeated after that. Secrets in answers are redacted.
 */
export class Recorder {
  private readonly pathRe: RegExp
  private readonly query: FieldCheck[]
  private readonly headers: FieldCheck[]
  private readonly answers: Answer[] = []

  constructor(
    readonly input: StartInput,
    readonly scope: string | null,
    readonly file: string,
  ) {
    this.pathRe = globToRegExp(input.match.path)
    this.query = fieldChecks(input.match.query)
    this.headers = fieldChecks(input.match.headers, true)
  }

  /** Whether a call, by its method, url and headers, is one to record. */
  wants(method: string, url: string, headers: Record<string, string | string[] | undefined>): boolean {
    const m = this.input.match
    if (m.method !== undefined && m.method !== method) return false
    const q = url.indexOf('?')
    if (!this.pathRe.test(q < 0 ? url : url.slice(0, q))) return false
    if (this.query.length > 0) {
      const fields = queryFields(url)
      if (!this.query.every((c) => c(fields))) return false
    }
    if (this.headers.length > 0) {
      const fields = headerFields(headers)
      if (!this.headers.every((c) => c(fields))) return false
    }
    return this.answers.length < MAX_ANSWERS
  }

  add(method: string, url: string, status: number, contentType: string | undefined, body: Buffer): void {
    const q = url.indexOf('?')
    const text = body.toString('utf8')
    let parsed: unknown = text
    if ((contentType ?? '').includes('json')) {
      try {
        parsed = redact(JSON.parse(text))
      } catch {
        parsed = text
      }
    }
    this.answers.push({
      method,
      path: q < 0 ? url : url.slice(0, q),
      query: Object.fromEntries(new URLSearchParams(q < 0 ? '' : url.slice(q + 1))),
      status,
      contentType,
      body: parsed,
    })
  }

  view(): Recording {
    return { name: this.input.name, scope: this.scope, recorded: this.answers.length, file: this.file }
  }

  /** The scenario: for each call, its answers in order, then the last one for every later call. */
  scenario(): ScenarioInput {
    const groups = new Map<string, Answer[]>()
    for (const a of this.answers) {
      const key = JSON.stringify([a.method, a.path, a.query])
      const list = groups.get(key)
      if (list) list.push(a)
      else groups.set(key, [a])
    }
    const rules: FaultRuleInput[] = []
    for (const list of groups.values()) {
      const rule = (a: Answer, nth?: number): FaultRuleInput => ({
        match: {
          method: a.method,
          path: a.path,
          ...(Object.keys(a.query).length > 0 ? { query: a.query } : {}),
          ...(nth === undefined ? {} : { nth }),
        },
        action: {
          type: 'status',
          status: a.status,
          body: a.body,
          ...(a.contentType && !a.contentType.includes('json')
            ? { headers: { 'content-type': a.contentType } }
            : {}),
        },
      })
      if (list.length > 1) for (const [i, a] of list.entries()) rules.push(rule(a, i + 1))
      const last = list[list.length - 1]
      if (last) rules.push(rule(last))
    }
    return {
      name: this.input.name,
      description:
        this.input.description ??
        `Recorded answers of ${this.answers.length} call(s) to ${this.input.match.path}.`,
      rules,
    }
  }

  async write(): Promise<void> {
    await writeFile(this.file, `${JSON.stringify(this.scenario(), null, 2)}\n`, {
      flag: this.input.overwrite ? 'w' : 'wx',
    })
  }
}

export const scenarioFile = (dir: string, name: string): string => join(dir, `${name}.json`)
