import { describe, expect, it } from 'vitest'
import { decode, encode } from './adapter-types'

/** Each type both ways: the upstream's form read into the contract's (decode) and written back (encode). */
describe('adapter types', () => {
  it('money: numbers, decimal text and thousand separators ↔ the contract’s decimal text', () => {
    expect(decode(12.5, 'money')).toBe('12.50')
    expect(decode(12, 'money')).toBe('12.00')
    expect(decode('0.000001', 'money')).toBe('0.000001')
    expect(decode(0.1 + 0.2, 'money')).toBe('0.30')
    expect(decode('1,234,567.8', 'money')).toBe('1234567.80')
    expect(decode('-1,000', 'money')).toBe('-1000.00')
    // Not an amount: as it came, for the contract watch to name.
    expect(decode('1,2,3', 'money')).toBe('1,2,3')
    expect(decode('abc', 'money')).toBe('abc')
    expect(encode('12.50', 'money')).toBe(12.5)
    expect(encode('1,234.5', 'money')).toBe(1234.5)
    expect(encode('abc', 'money')).toBe('abc')
  })

  it('cents, and money with a scale: integer units of the upstream ↔ decimal text, exactly', () => {
    expect(decode(1250, 'cents')).toBe('12.50')
    expect(decode('5', 'cents')).toBe('0.05')
    expect(decode(-99, 'cents')).toBe('-0.99')
    expect(decode(123456789, 'cents')).toBe('1234567.89')
    expect(decode(1_500_000, { type: 'money', scale: 1_000_000 })).toBe('1.50')
    expect(decode(1_234_567, { type: 'money', scale: 1_000_000 })).toBe('1.234567')
    expect(encode('12.5', 'cents')).toBe(1250)
    expect(encode('0.07', 'cents')).toBe(7)
    expect(encode('19.99', 'cents')).toBe(1999)
    expect(encode('1.234567', { type: 'money', scale: 1_000_000 })).toBe(1_234_567)
    // Never rounded: a fraction of a cent goes as it is, for the upstream to refuse.
    expect(encode('0.005', 'cents')).toBe(0.5)
  })

  it('seconds ↔ milliseconds', () => {
    expect(decode(1_795_800_000, 'seconds')).toBe(1_795_800_000_000)
    expect(decode('1795800000', 'seconds')).toBe(1_795_800_000_000)
    expect(decode(null, 'seconds')).toBe(null)
    expect(encode(1_795_800_000_999, 'seconds')).toBe(1_795_800_000)
    expect(encode('1795800000000', 'seconds')).toBe(1_795_800_000)
  })

  it('datetime: "YYYY-MM-DD HH:mm:ss" in UTC+8 (or the zone given) ↔ milliseconds', () => {
    const ms = Date.UTC(2026, 10, 28, 2, 30, 0) // 10:30 in Beijing
    expect(decode('2026-11-28 10:30:00', 'datetime')).toBe(ms)
    expect(decode('2026/11/28 10:30', 'datetime')).toBe(ms)
    expect(decode('2026-11-28T10:30:00.250', 'datetime')).toBe(ms + 250)
    expect(decode('2026-11-28T02:30:00Z', 'datetime')).toBe(ms)
    expect(decode('2026-11-28 09:30:00', { type: 'datetime', zone: '+07:00' })).toBe(ms)
    expect(decode('2026-11-28', 'datetime')).toBe(Date.UTC(2026, 10, 27, 16))
    expect(decode('yesterday', 'datetime')).toBe('yesterday')
    expect(decode(null, 'datetime')).toBe(null)
    expect(encode(ms, 'datetime')).toBe('2026-11-28 10:30:00')
    expect(encode(String(ms), { type: 'datetime', zone: '-05:00' })).toBe('2026-11-27 21:30:00')
  })

  it('bool01 and yn: the upstream’s flags ↔ booleans', () => {
    for (const yes of [1, '1', 'true', 'Y', 'y', 'yes', true]) expect(decode(yes, 'yn')).toBe(true)
    for (const no of [0, '0', 'false', 'N', 'n', 'no', false]) expect(decode(no, 'bool01')).toBe(false)
    expect(decode('maybe', 'yn')).toBe('maybe')
    expect(encode('true', 'yn')).toBe('Y')
    expect(encode(false, 'yn')).toBe('N')
    expect(encode('1', 'bool01')).toBe(1)
    expect(encode('false', 'bool01')).toBe(0)
  })

  it('csv and csv-int: comma-separated text ↔ lists', () => {
    expect(decode('1,2,3', 'csv-int')).toEqual([1, 2, 3])
    expect(decode(' 4, 5 ,6', 'csv-int')).toEqual([4, 5, 6])
    expect(decode('', 'csv-int')).toEqual([])
    expect(decode('big,odd', 'csv')).toEqual(['big', 'odd'])
    expect(decode('1|2|3', { type: 'csv-int', separator: '|' })).toEqual([1, 2, 3])
    // An item that is not a number: the text as it came.
    expect(decode('1,x,3', 'csv-int')).toBe('1,x,3')
    expect(decode([1, 2], 'csv-int')).toEqual([1, 2])
    expect(encode([1, 2, 3], 'csv-int')).toBe('1,2,3')
    expect(encode(['big', 'odd'], { type: 'csv', separator: '|' })).toBe('big|odd')
    expect(encode('1,2', 'csv')).toBe('1,2')
  })

  it('from0: numbers counted from 0 (a zero-based page) ↔ from 1', () => {
    expect(decode(0, 'from0')).toBe(1)
    expect(decode('4', 'from0')).toBe(5)
    expect(decode('x', 'from0')).toBe('x')
    expect(encode('1', 'from0')).toBe(0)
    expect(encode(3, 'from0')).toBe(2)
  })

  it('string, number and int', () => {
    expect(decode(1.95, 'string')).toBe('1.95')
    expect(decode('42', 'int')).toBe(42)
    expect(decode('4.2', 'int')).toBe('4.2')
    expect(decode('1,024', 'number')).toBe(1024)
    expect(encode('17', 'int')).toBe(17)
    expect(encode(17, 'string')).toBe('17')
    expect(encode('', 'number')).toBe('')
  })
})
