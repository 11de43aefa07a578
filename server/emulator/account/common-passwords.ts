import { PASSWORD_LIMITS } from '@shared/contract/fields'
import { LEAKED_TOP, patterns } from './common-passwords-zh'

let common: Promise<ReadonlySet<string>> | null = null

/**
 * The common and breached passwords no one may choose, read on first use:
 *
 * - zxcvbn-ts's list of about 49,000 passwords seen most often in breaches (mostly English-speaking
 *   sites), shipped with `@zxcvbn-ts/language-common`;
 * - the passwords that lead this market's breach lists (the 2011 CSDN, Tianya and 7k7k leaks) and
 *   the shapes that fill them: repeated and running digits, love numbers, pinyin surnames and
 *   words with digits, birthdays (see `common-passwords-zh.ts`), about 52,000.
 *
 * Only those long enough to be allowed at all are kept, lower-cased.
 */
function commonPasswords(): Promise<ReadonlySet<string>> {
  common ??= import('@zxcvbn-ts/language-common').then(({ dictionary }) => {
    const set = patterns()
    for (const p of [...dictionary['passwords-common'], ...LEAKED_TOP]) {
      const lower = p.toLowerCase()
      if ([...lower].length >= PASSWORD_LIMITS.min) set.add(lower)
    }
    return set
  })
  return common
}

/** Whether a new password is on the list, ignoring case and Unicode composition. */
export async function isCommonPassword(password: string): Promise<boolean> {
  return (await commonPasswords()).has(password.normalize('NFC').toLowerCase())
}
