import { PASSWORD_LIMITS } from '@shared/contract/fields'

let common: Promise<ReadonlySet<string>> | null = null

/**
 * The common and breached passwords no one may choose: zxcvbn-ts's list of about 49,000 passwords
 * seen most often in breaches, shipped with the package and read on first use. Only those long
 * enough to be allowed at all are kept (about 18,000), lower-cased.
 */
function commonPasswords(): Promise<ReadonlySet<string>> {
  common ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) =>
      new Set(
        dictionary['passwords-common']
          .map((p) => p.toLowerCase())
          .filter((p) => [...p].length >= PASSWORD_LIMITS.min),
      ),
  )
  return common
}

/** Whether a new password is on the list, ignoring case and Unicode composition. */
export async function isCommonPassword(password: string): Promise<boolean> {
  return (await commonPasswords()).has(password.normalize('NFC').toLowerCase())
}
