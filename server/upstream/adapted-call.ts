import type { Endpoint } from '@shared/contract/endpoint'
import type { Adapter, Fields, UpstreamCall } from './adapter'

/**
 * A call's fields, from its query string and its body (urlencoded, JSON or multipart): text from a
 * query or a form, a JSON body's values as they are (lists and objects too).
 */
export async function fieldsOf(
  contentType: string | undefined,
  body: Buffer | string | null,
  url: string,
): Promise<Fields> {
  const fields: Fields = {}
  const q = url.indexOf('?')
  if (q >= 0) for (const [k, v] of new URLSearchParams(url.slice(q + 1))) fields[k] = v
  if (body === null || body.length === 0) return fields
  const type = (contentType ?? '').toLowerCase()
  const text = typeof body === 'string' ? body : body.toString('utf8')
  if (type.includes('application/json')) {
    const json = JSON.parse(text) as unknown
    if (json !== null && typeof json === 'object' && !Array.isArray(json)) {
      for (const [k, v] of Object.entries(json)) fields[k] = v
    }
  } else if (type.includes('multipart/form-data')) {
    const bytes = typeof body === 'string' ? body : new Uint8Array(body)
    const form = await new Response(bytes, { headers: { 'content-type': contentType ?? '' } }).formData()
    for (const [k, v] of form) if (typeof v === 'string') fields[k] = v
  } else {
    for (const [k, v] of new URLSearchParams(text)) fields[k] = v
  }
  return fields
}

/** A translated call as bytes: the path with its query, and the body with its type. */
export async function encodeCall(
  call: UpstreamCall,
): Promise<{ path: string; body: Buffer | null; contentType: string | null }> {
  const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v))
  if (call.encoding === 'query') {
    const query = new URLSearchParams(Object.entries(call.fields).map(([k, v]) => [k, text(v)])).toString()
    return { path: query ? `${call.path}?${query}` : call.path, body: null, contentType: null }
  }
  if (call.encoding === 'json') {
    return {
      path: call.path,
      body: Buffer.from(JSON.stringify(call.fields)),
      contentType: 'application/json',
    }
  }
  if (call.encoding === 'multipart') {
    const form = new FormData()
    for (const [k, v] of Object.entries(call.fields)) form.set(k, text(v))
    const res = new Response(form)
    return {
      path: call.path,
      body: Buffer.from(await res.arrayBuffer()),
      contentType: res.headers.get('content-type'),
    }
  }
  const form = new URLSearchParams(Object.entries(call.fields).map(([k, v]) => [k, text(v)])).toString()
  return { path: call.path, body: Buffer.from(form), contentType: 'application/x-www-form-urlencoded' }
}

/**
 * The translation of one answer back to the contract (see Adapter.answer): a JSON answer is read,
 * translated and written again; anything else goes as it came.
 */
export function answerTranslator(
  adapter: Adapter,
  endpoint: Endpoint | undefined,
  query: Fields,
): (body: Buffer) => Buffer {
  return (body) => {
    let json: unknown
    try {
      json = JSON.parse(body.toString('utf8'))
    } catch {
      return body
    }
    return Buffer.from(JSON.stringify(adapter.answer(endpoint, json, query)))
  }
}
