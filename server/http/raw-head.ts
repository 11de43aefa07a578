import { STATUS_CODES } from 'node:http'

type HeaderValue = string | number | readonly string[] | undefined

/**
 * An HTTP/1.1 status line and headers, ending with the blank line, for the places that write to the
 * socket themselves instead of sending through a reply: the answer to a request Node could not read,
 * and a fault that sends a head and then breaks the connection.
 */
export function rawHead(status: number, headers: Readonly<Record<string, HeaderValue>>): string {
  let head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n`
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue
    for (const one of Array.isArray(value) ? value : [value]) head += `${name}: ${one}\r\n`
  }
  return `${head}\r\n`
}
