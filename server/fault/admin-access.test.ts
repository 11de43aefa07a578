import { describe, expect, it } from 'vitest'
import { createTestApp } from '../test-support/test-app'
import { isLoopback } from './admin-access'

describe('the control API without an admin token', () => {
  it('answers this machine only, judged by the socket and not by forwarding headers', async () => {
    const t = await createTestApp({ TRUST_PROXY: 'true' })
    try {
      for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
        const res = await t.app.inject({ url: '/__emu/sms?phone=13800138000', remoteAddress })
        expect(res.statusCode, remoteAddress).toBe(200)
      }
      for (const remoteAddress of ['10.0.0.5', '192.168.1.20', '::ffff:10.0.0.5', 'fe80::1']) {
        const res = await t.app.inject({
          url: '/__emu/sms?phone=13800138000',
          remoteAddress,
          headers: { 'x-forwarded-for': '127.0.0.1', 'x-real-ip': '127.0.0.1', forwarded: 'for=127.0.0.1' },
        })
        expect(res.statusCode, remoteAddress).toBe(403)
        expect(res.json()).toMatchObject({ code: 403, data: null })
      }
      // The player API is not affected.
      const api = await t.app.inject({ url: '/api/api2/announcement', remoteAddress: '10.0.0.5' })
      expect(api.json()).toMatchObject({ code: 1 })
    } finally {
      await t.close()
    }
  })

  it('with a token set, takes the token from any address', async () => {
    const token = 'a-long-admin-token-123'
    const t = await createTestApp({ EMU_ADMIN_TOKEN: token })
    try {
      const url = '/__emu/sms?phone=13800138000'
      const remoteAddress = '10.0.0.5'
      expect((await t.app.inject({ url, remoteAddress })).statusCode).toBe(401)
      const res = await t.app.inject({ url, remoteAddress, headers: { 'x-emu-admin-token': token } })
      expect(res.statusCode).toBe(200)
    } finally {
      await t.close()
    }
  })
})

describe('isLoopback', () => {
  it('knows the loopback addresses', () => {
    expect(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'].every(isLoopback)).toBe(true)
    expect(['10.0.0.1', '::ffff:10.0.0.1', '::2', '1270.0.0.1', '', undefined].some(isLoopback)).toBe(false)
  })
})
