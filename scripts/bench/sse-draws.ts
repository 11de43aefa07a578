/** A draw as one client received it: the round, its `draw_at` and when it arrived (both epoch ms). */
export interface DrawSeen {
  readonly game: string
  readonly round: string
  readonly drawAt: number
  readonly at: number
}

const DRAW_AT = /"draw_at":(\d+)/
const ROUND_ID = /"round_id":"([^"]*)"/
const GAME = /"game":"([^"]*)"/

/**
 * The benchmark's lean Server-Sent Events reader: splits the text into events at blank lines and,
 * for each `draw`, reads `game`, `round_id` and `draw_at` from its data without parsing all of it (a few
 * thousand readers in one process read every draw). Comment lines (heartbeats) are not events.
 * The app's own reader is shared/sse.ts; this one only needs what a latency sample needs.
 */
export class SseDrawReader {
  private buffer = ''

  constructor(private readonly onDraw: (draw: DrawSeen) => void) {}

  /** Feeds a chunk received at `at`; returns how many events it completed. */
  push(chunk: string, at: number): number {
    this.buffer += chunk
    let events = 0
    for (;;) {
      const end = this.buffer.indexOf('\n\n')
      if (end < 0) break
      const block = this.buffer.slice(0, end)
      this.buffer = this.buffer.slice(end + 2)
      if (!/^(event|data|id):/m.test(block)) continue
      events++
      if (!/^event: ?draw$/m.test(block)) continue
      const drawAt = DRAW_AT.exec(block)
      const round = ROUND_ID.exec(block)?.[1]
      const game = GAME.exec(block)?.[1]
      if (drawAt?.[1] && round !== undefined && game !== undefined)
        this.onDraw({ game, round, drawAt: Number(drawAt[1]), at })
    }
    return events
  }
}
