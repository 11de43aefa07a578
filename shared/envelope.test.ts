import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { looseEnvelopeSchema, readLooseEnvelope } from './envelope'

/** What JSON.parse may hand over, leaning towards things that look like envelopes. */
const answer = fc.oneof(
  fc.jsonValue(),
  fc.record(
    {
      code: fc.oneof(fc.integer(), fc.double(), fc.constant(2 ** 60), fc.string(), fc.constant(null)),
      msg: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
      message: fc.oneof(fc.string(), fc.boolean()),
      data: fc.jsonValue(),
      extra: fc.jsonValue(),
    },
    { requiredKeys: [] },
  ),
)

describe('readLooseEnvelope', () => {
  it('reads every value as looseEnvelopeSchema parses it', () => {
    fc.assert(
      fc.property(answer, (value) => {
        const parsed = looseEnvelopeSchema.safeParse(value)
        expect(readLooseEnvelope(value)).toStrictEqual(parsed.success ? parsed.data : null)
      }),
      { numRuns: 2000 },
    )
  })

  it('keeps the fields of an envelope and drops the rest', () => {
    expect(readLooseEnvelope({ code: 1, msg: 'ok', data: { a: 1 }, extra: true })).toStrictEqual({
      code: 1,
      msg: 'ok',
      data: { a: 1 },
    })
    expect(readLooseEnvelope({ code: 1.5 })).toBeNull()
    expect(readLooseEnvelope([1])).toBeNull()
  })
})
