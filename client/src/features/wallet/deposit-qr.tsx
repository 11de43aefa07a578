import { QrCode } from '@client/components/qr-code/qr-code'

/** The QR code of the deposit address, in the wallet's look (components/qr-code). */
export function DepositQr({ text, label }: { text: string; label: string }) {
  return <QrCode text={text} label={label} block="wallet-qr" />
}
