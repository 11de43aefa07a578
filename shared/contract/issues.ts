import type { z } from 'zod'
import { SERVER_MSG } from '../messages'

/**
 * Error map for request parsing: every message names the field it is about, in the
 * interface's language. Schema-level messages (set where a field is declared) win over it.
 */
export const requestErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return '不能为空'
      return `类型错误，应为 ${issue.expected}`
    case 'too_small':
      return issue.origin === 'string'
        ? `长度不能少于 ${String(issue.minimum)}`
        : `不能小于 ${String(issue.minimum)}`
    case 'too_big':
      return issue.origin === 'string'
        ? `长度不能超过 ${String(issue.maximum)}`
        : `不能大于 ${String(issue.maximum)}`
    case 'invalid_format':
      return '格式不正确'
    case 'invalid_value':
      return `取值无效，可选 ${issue.values.map(String).join(' / ')}`
    case 'unrecognized_keys':
      return `不支持的字段 ${issue.keys.join(', ')}`
    case 'invalid_union':
      return '取值无效'
    default:
      return undefined
  }
}

/** One line per issue, each led by the field's name: `参数错误：phone 格式不正确`. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], where?: string): string {
  const parts = closestBranches(issues).map((issue) => {
    const field = issue.path.map(String).join('.')
    if (issue.code === 'unrecognized_keys') return issue.message
    const prefix = field || where || ''
    return prefix ? `${prefix} ${issue.message}` : issue.message
  })
  return `${SERVER_MSG.invalidInput}：${parts.join('；')}`
}

/**
 * A body that fits none of a union's shapes is described by the shape it came closest to (the one
 * with the fewest issues), so the message still names the fields to fix.
 */
function closestBranches(issues: readonly z.core.$ZodIssue[]): readonly z.core.$ZodIssue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [issue]
    const fewest = Math.min(...issue.errors.map((e) => e.length))
    const closest = issue.errors.filter((e) => e.length === fewest)
    // No shape is closer than another: the union's own message says what is expected.
    if (fewest === 0 || closest.length > 1 || !closest[0]) return [issue]
    const prefix = issue.path
    return closestBranches(closest[0].map((i) => ({ ...i, path: [...prefix, ...i.path] })))
  })
}
