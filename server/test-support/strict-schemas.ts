import { expect } from 'vitest'
import { z } from 'zod'

/** The object schemas a request part may be: itself, or each option of a union, unwrapped. */
function objectShapes(schema: z.ZodType): z.ZodType[] {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable)
    return objectShapes(schema.unwrap() as z.ZodType)
  if (schema instanceof z.ZodUnion) return (schema.options as z.ZodType[]).flatMap(objectShapes)
  return schema instanceof z.ZodObject ? [schema] : []
}

/**
 * Expects every query and body schema of these contract objects to refuse a field it does not
 * name; a body of several shapes (a union) is strict in each of them.
 */
export function expectUnknownFieldsRefused(
  endpoints: readonly { id: string; query?: z.ZodType | undefined; body?: z.ZodType | undefined }[],
): void {
  for (const e of endpoints) {
    for (const schema of [e.query, e.body]) {
      if (!schema) continue
      for (const shape of objectShapes(schema)) {
        const result = shape.safeParse({ __unknown_field__: 'x' })
        expect(result.success, e.id).toBe(false)
        expect(JSON.stringify(result.error?.issues), e.id).toContain('__unknown_field__')
      }
    }
  }
}
