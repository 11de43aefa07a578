/** A moment as the games pages show it: date and 24-hour time on this device's clock. */
export const dateTime = (ms: number): string => new Date(ms).toLocaleString('zh-CN', { hour12: false })
