import { describe, expect, it } from 'vitest'
import { EmuClient } from './emu-client'

/** A control answer with an empty journal page. */
const emptyPage = () =>
  new Response(
    JSON.stringify({ code: 1, msg: '成功', data: { entries: [], size: 0, capacity: 10, lastSeq: 0 } }),
    {
      headers: { 'content-type': 'application/json' },
    },
  )

describe('EmuClient.tail', () => {
  it('stops as soon as its signal aborts, without waiting out the interval', async () => {
    const stop = new AbortController()
    let reads = 0
    const client = new EmuClient({
      url: 'http://emu.test',
      fetch: async () => {
        reads++
        // The second read is the first poll: stop while the tail waits for the next one.
        if (reads === 2) queueMicrotask(() => stop.abort())
        return emptyPage()
      },
    })
    await client.tail(() => {}, { intervalMs: 3_600_000, signal: stop.signal })
    expect(reads).toBe(2)
  })
})
