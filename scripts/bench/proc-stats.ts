import { readFileSync } from 'node:fs'

/**
 * What the benchmarks read about a process from /proc (Linux), and from a server's Prometheus
 * text: CPU time, resident memory, the open-file limit, and metric values.
 */

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on every Linux the project runs on). */
const CLK_TCK = 100

/** User plus system CPU time the process has used, in seconds. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // The command name (field 2) is in parentheses and may hold spaces: count from after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK
}

/** Resident set size in bytes. */
export function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]
  if (!kb) throw new Error(`no VmRSS for process ${pid}`)
  return Number(kb) * 1024
}

/** This process's soft limit on open files (children inherit it), or Infinity when unlimited. */
export function openFileLimit(): number {
  const limits = readFileSync('/proc/self/limits', 'utf8')
  const soft = /^Max open files\s+(\S+)/m.exec(limits)?.[1]
  return !soft || soft === 'unlimited' ? Number.POSITIVE_INFINITY : Number(soft)
}

/** The sum of every sample of a metric in Prometheus text (all label sets), or null when absent. */
export function metricSum(text: string, name: string): number | null {
  let sum: number | null = null
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue
    const rest = line.slice(name.length)
    if (rest[0] !== ' ' && rest[0] !== '{') continue
    const value = Number(line.slice(line.lastIndexOf(' ') + 1))
    if (Number.isFinite(value)) sum = (sum ?? 0) + value
  }
  return sum
}

/** The value at quantile q (0–1) of the samples, nearest rank; NaN when there are none. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN
  const sorted = [...samples].sort((a, b) => a - b)
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))
  return sorted[rank] ?? Number.NaN
}
