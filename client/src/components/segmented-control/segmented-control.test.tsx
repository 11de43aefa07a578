// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { SegmentedControl } from './segmented-control'

afterEach(cleanup)

function Views({ onChange }: { onChange?: (value: 'a' | 'b') => void }) {
  const [value, setValue] = useState<'a' | 'b'>('a')
  return (
    <SegmentedControl
      label="查看内容"
      value={value}
      onChange={(next) => {
        setValue(next)
        onChange?.(next)
      }}
      options={[
        { label: '流水记录', value: 'a' },
        { label: '下级查询', value: 'b' },
      ]}
    />
  )
}

describe('SegmentedControl', () => {
  it('is a named radio group whose radios are named by their text', () => {
    render(<Views />)
    const group = screen.getByRole('radiogroup', { name: '查看内容' })
    const radios = screen.getAllByRole('radio')
    expect(radios).toHaveLength(2)
    expect(group.contains(radios[0] ?? null)).toBe(true)
    expect(screen.getByRole('radio', { name: '流水记录' })).toHaveProperty('checked', true)
    expect(screen.getByRole('radio', { name: '下级查询' })).toHaveProperty('checked', false)
  })

  it('a tap on a segment picks it and marks it selected', () => {
    const picked: string[] = []
    render(<Views onChange={(value) => picked.push(value)} />)
    fireEvent.click(screen.getByText('下级查询'))
    expect(picked).toEqual(['b'])
    expect(screen.getByRole('radio', { name: '下级查询' })).toHaveProperty('checked', true)
    expect(screen.getByText('下级查询').closest('label')?.className).toContain('adm-segmented-item-selected')
    expect(screen.getByText('流水记录').closest('label')?.className).not.toContain(
      'adm-segmented-item-selected',
    )
  })
})
