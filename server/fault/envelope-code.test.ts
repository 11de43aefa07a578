import { describe, expect, it } from 'vitest'
import { envelopeCode } from './journal'

describe('envelopeCode', () => {
  it('reads the code of an envelope, from text or a Buffer, whatever its size or sign', () => {
    expect(envelopeCode('{"code":1,"msg":"成功","data":{"balance":"0.00"}}')).toBe(1)
    expect(envelopeCode('{"code":10001,"msg":"登录已失效!","data":null}')).toBe(10001)
    expect(envelopeCode('{"code":-3}')).toBe(-3)
    expect(envelopeCode(Buffer.from('{"code":401,"msg":"x"}'))).toBe(401)
  })

  it('reads the code wherever it stands in the object and however the number is written', () => {
    expect(envelopeCode('{"msg":"x","code":7}')).toBe(7)
    expect(envelopeCode('{ "code": 2 }')).toBe(2)
    expect(envelopeCode('{"code":1e3}')).toBe(1000)
  })

  it('gives null for what is not an envelope with an integer code', () => {
    expect(envelopeCode('{"code":1.5,"msg":"x"}')).toBeNull()
    expect(envelopeCode('{"code":"1"}')).toBeNull()
    expect(envelopeCode('{"code":1,"msg":"成')).toBeNull()
    expect(envelopeCode('<html>502</html>')).toBeNull()
    expect(envelopeCode('')).toBeNull()
    expect(envelopeCode('[1,2]')).toBeNull()
  })
})
