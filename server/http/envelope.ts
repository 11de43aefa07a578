import { CODE } from '@shared/envelope'
import { SERVER_MSG } from '@shared/messages'

export const ok = <T>(data: T) => ({ code: CODE.ok, msg: SERVER_MSG.ok, data })
export const failure = (code: number, msg: string) => ({ code, msg, data: null })
