import { type ChildProcess, spawn } from 'node:child_process'
import { join } from 'node:path'
import { ROOT_DIR } from '@server/paths'

/** Runs a TypeScript entry point in a new Node process through tsx's loader. */
export function spawnTs(file: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', file], {
    cwd: ROOT_DIR,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

export const SERVER_MAIN = join(ROOT_DIR, 'server', 'main.ts')

/** Everything a child wrote to stdout and stderr, and its exit code or signal. */
export function finished(
  child: ChildProcess,
): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString()
  })
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString()
  })
  return new Promise((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  )
}
