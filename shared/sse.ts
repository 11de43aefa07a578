/**
 * A reader of the Server-Sent Events format (the WHATWG "event stream interpretation"), for the
 * app's fetch-based stream reader and the server's tests: fed text as it arrives, it calls back
 * with each complete event and each comment line.
 */
export interface SseFrame {
  /** The event's `id`, or null when it had none. */
  readonly id: string | null
  /** `message` when the event named none. */
  readonly event: string
  readonly data: string
}

export interface SseHandlers {
  onEvent(frame: SseFrame): void
  onComment?(text: string): void
}

export class SseParser {
  private buffer = ''
  private data: string[] = []
  private event = ''
  private id: string | null = null
  private sawField = false

  constructor(private readonly handlers: SseHandlers) {}

  /** Takes the next piece of the stream, whatever its boundaries. */
  push(text: string): void {
    this.buffer += text
    let start = 0
    for (;;) {
      const nl = this.nextBreak(start)
      if (nl === null) break
      const line = this.buffer.slice(start, nl.at)
      start = nl.at + nl.length
      this.line(line)
    }
    this.buffer = this.buffer.slice(start)
  }

  private nextBreak(from: number): { at: number; length: number } | null {
    for (let i = from; i < this.buffer.length; i++) {
      const c = this.buffer.charCodeAt(i)
      if (c === 10) return { at: i, length: 1 }
      if (c === 13) {
        // A lone CR at the end may be the first half of CRLF: wait for more.
        if (i + 1 === this.buffer.length) return null
        return { at: i, length: this.buffer.charCodeAt(i + 1) === 10 ? 2 : 1 }
      }
    }
    return null
  }

  private line(line: string): void {
    if (line === '') {
      this.dispatch()
      return
    }
    if (line.startsWith(':')) {
      this.handlers.onComment?.(line.slice(1).trimStart())
      return
    }
    const colon = line.indexOf(':')
    const field = colon < 0 ? line : line.slice(0, colon)
    let value = colon < 0 ? '' : line.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'data') {
      this.data.push(value)
      this.sawField = true
    } else if (field === 'event') {
      this.event = value
      this.sawField = true
    } else if (field === 'id' && !value.includes('\0')) {
      this.id = value
      this.sawField = true
    }
  }

  private dispatch(): void {
    if (this.sawField && this.data.length > 0) {
      this.handlers.onEvent({ id: this.id, event: this.event || 'message', data: this.data.join('\n') })
    }
    this.data = []
    this.event = ''
    this.sawField = false
    // An event's id stands for the ones after it that name none (the last-event-ID buffer); ours always name one.
  }
}
