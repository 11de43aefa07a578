import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT_DIR } from '../paths'
import { createTestApp, type TestApp } from '../test-support/test-app'
import { apiDocs, UPSTREAM_DOC_ROUTE } from './api-docs'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

describe(UPSTREAM_DOC_ROUTE, () => {
  it('serves docs/upstream.md as Markdown beside the OpenAPI document', async () => {
    const res = await t.app.inject({ url: UPSTREAM_DOC_ROUTE })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8')
    expect(res.body).toBe(readFileSync(join(ROOT_DIR, 'docs/upstream.md'), 'utf8'))
    expect(res.body).toContain('### GET /api/api/getBalance')
  })

  it('answers 404 in the envelope when the document is not there', async () => {
    const app = Fastify()
    await app.register(apiDocs, { upstreamDocFile: join(ROOT_DIR, 'no-such-dir', 'upstream.md') })
    const res = await app.inject({ url: UPSTREAM_DOC_ROUTE })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ code: 40400, msg: '接口不存在', data: null })
    await app.close()
  })
})
