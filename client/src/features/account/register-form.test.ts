import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { inviteCodeFrom } from './register-form'

const agentFixture = z
  .object({ invite_path: z.string() })
  .parse(JSON.parse(readFileSync(new URL('../../../../fixtures/agent.json', import.meta.url), 'utf8')))

describe('inviteCodeFrom', () => {
  it('reads the code from the invite link the server builds', () => {
    const link = new URL(`https://game.example${agentFixture.invite_path}DEMO88`)
    expect(inviteCodeFrom(link.searchParams)).toBe('DEMO88')
  })

  it('tidies what a player pasted and is empty without a code', () => {
    expect(inviteCodeFrom(new URLSearchParams('invite_code=%20demo88%20'))).toBe('DEMO88')
    expect(inviteCodeFrom(new URLSearchParams('isreg=1'))).toBe('')
  })
})
