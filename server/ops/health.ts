/**
 * What `/readyz` answers: ready when every check passes and the server is not draining. Each part
 * of the server adds the check it owns (the emulator's database and games chain, proxy mode's
 * upstream); main.ts starts the drain on SIGTERM.
 */
export class Health {
  private readonly checks: { name: string; check: () => string | null }[] = []
  private drainingSince: number | null = null
  private keepAliveOff = false

  /** `check` answers null when ready, else why not (a short phrase for the answer and the log). */
  add(name: string, check: () => string | null): void {
    this.checks.push({ name, check })
  }

  /** From now on, not ready: load balancers stop sending new players here. */
  startDraining(now = Date.now()): void {
    this.drainingSince ??= now
  }

  /**
   * From now on every answer closes its connection (`connection: close`): at the end of the drain,
   * kept-alive connections end after their next answer instead of being cut between two requests.
   */
  stopKeepAlive(): void {
    this.keepAliveOff = true
  }

  get keepAlive(): boolean {
    return !this.keepAliveOff
  }

  get draining(): boolean {
    return this.drainingSince !== null
  }

  /** Null when ready, else every reason it is not. */
  notReady(): string[] | null {
    const reasons: string[] = []
    if (this.drainingSince !== null) reasons.push('draining')
    for (const { name, check } of this.checks) {
      let why: string | null
      try {
        why = check()
      } catch (err) {
        why = err instanceof Error ? err.message : String(err)
      }
      if (why !== null) reasons.push(`${name}: ${why}`)
    }
    return reasons.length > 0 ? reasons : null
  }
}
