import { commitmentSchema, transferBetBody, transferSchema } from '@shared/contract/games'
import { gameCodeSchema } from '@shared/games/config'
import { z } from 'zod'
import { defineControl } from './control-endpoint'

/** The games for testers (emulator mode); draws follow the clock (docs/testing.md#the-clock). */

export const emuTransfer = defineControl({
  id: 'emuTransfer',
  method: 'POST',
  path: '/__emu/transfers',
  summary:
    'A transfer bet as the chain would bring it, from a bound bet address to a receiving address (no session)',
  tag: 'games',
  emulatorOnly: true,
  body: transferBetBody,
  data: transferSchema,
})

export const gamesChain = defineControl({
  id: 'gamesChain',
  method: 'GET',
  path: '/__emu/games',
  summary: "The chain's commitment and each game's draw cursor (ms of the emulator clock drawn up to)",
  tag: 'games',
  emulatorOnly: true,
  data: z.object({
    commitment: commitmentSchema,
    cursors: z.record(gameCodeSchema, z.number().int().nullable()),
  }),
})

export const GAMES_CONTROLS = [emuTransfer, gamesChain] as const
