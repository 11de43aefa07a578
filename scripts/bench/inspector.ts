/**
 * A server started with `--inspect=127.0.0.1:<port>`, asked over the DevTools protocol for its live
 * JS heap: a full collection first, so the number is what is reachable, not what awaits the next
 * collection. Only the benchmarks use it; the inspector costs nothing while no one asks.
 */
export class HeapProbe {
  private constructor(
    private readonly ws: WebSocket,
    private nextId = 1,
  ) {}

  static async connect(inspectPort: number, timeoutMs = 10_000): Promise<HeapProbe> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      try {
        const list = (await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json()) as {
          webSocketDebuggerUrl: string
        }[]
        const url = list[0]?.webSocketDebuggerUrl
        if (!url) throw new Error('no inspector target')
        const ws = new WebSocket(url)
        await new Promise<void>((resolve, reject) => {
          ws.addEventListener('open', () => resolve(), { once: true })
          ws.addEventListener('error', () => reject(new Error(`cannot open ${url}`)), { once: true })
        })
        return new HeapProbe(ws)
      } catch (err) {
        if (Date.now() > deadline) throw err
        await new Promise((r) => setTimeout(r, 200))
      }
    }
  }

  private call<T>(method: string): Promise<T> {
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      const onMessage = (event: MessageEvent) => {
        const msg = JSON.parse(String(event.data)) as { id?: number; result?: T; error?: { message: string } }
        if (msg.id !== id) return
        this.ws.removeEventListener('message', onMessage)
        if (msg.error) reject(new Error(`${method}: ${msg.error.message}`))
        else resolve(msg.result as T)
      }
      this.ws.addEventListener('message', onMessage)
      this.ws.send(JSON.stringify({ id, method }))
    })
  }

  /** Bytes of JS heap in use after a full garbage collection. */
  async liveHeap(): Promise<number> {
    await this.call('HeapProfiler.collectGarbage')
    const { usedSize } = await this.call<{ usedSize: number }>('Runtime.getHeapUsage')
    return usedSize
  }

  /** Ends the session: a process exiting with a session still open waits for it to end. */
  close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve()
    return new Promise((resolve) => {
      const done = setTimeout(resolve, 2_000)
      this.ws.addEventListener(
        'close',
        () => {
          clearTimeout(done)
          resolve()
        },
        { once: true },
      )
      this.ws.close()
    })
  }
}
