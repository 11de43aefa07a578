/** A phone number as other players may see it: the first three and last four digits. */
export const maskPhone = (phone: string): string =>
  phone.length <= 7 ? phone : `${phone.slice(0, 3)}***${phone.slice(-4)}`
