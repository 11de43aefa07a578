import { describe, expect, it } from 'vitest'
import { type SseFrame, SseParser } from './sse'

function parse(chunks: string[]) {
  const events: SseFrame[] = []
  const comments: string[] = []
  const p = new SseParser({ onEvent: (e) => events.push(e), onComment: (c) => comments.push(c) })
  for (const c of chunks) p.push(c)
  return { events, comments }
}

describe('SseParser', () => {
  it('reads events with ids, names and data split anywhere', () => {
    const text = 'id: a-1\nevent: draw\ndata: {"x":1}\n\n: heartbeat\n\nid: a-2\ndata: line1\ndata: line2\n\n'
    const whole = parse([text])
    expect(whole.events).toEqual([
      { id: 'a-1', event: 'draw', data: '{"x":1}' },
      { id: 'a-2', event: 'message', data: 'line1\nline2' },
    ])
    expect(whole.comments).toEqual(['heartbeat'])
    // One character at a time gives the same.
    expect(parse([...text]).events).toEqual(whole.events)
  })

  it('takes CRLF and CR line ends, and waits for an event to be complete', () => {
    expect(parse(['id: 1\r\ndata: a\r', '\n\r\n', 'data: b\r\r\n']).events).toEqual([
      { id: '1', event: 'message', data: 'a' },
      { id: '1', event: 'message', data: 'b' },
    ])
    expect(parse(['data: not yet\n']).events).toEqual([])
  })
})
