import { PageShell } from '@client/components/page-shell/page-shell'
import { callApi } from '@client/lib/http'
import { useApi } from '@client/lib/use-api'
import { useBusy } from '@client/lib/use-busy'
import { networkHelp, ping } from '@shared/contract/content'
import Button from 'antd-mobile/es/components/button'
import { useEffect, useRef, useState } from 'react'
import { ArticleList } from './article-list'
import { classifyRoundTrip, medianMs, QUALITY_LABEL } from './content-format'
import './content.css'

const SAMPLES = 5

/** Times `SAMPLES` round trips to the ping endpoint one after another; a failed one is left out. */
async function measure(onSample: (ms: number) => void): Promise<void> {
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now()
    try {
      await callApi(ping)
      onSample(performance.now() - started)
    } catch {
      // callApi showed the failure; the remaining samples still tell how the line is.
    }
  }
}

/** Network help: how fast the server answers from here, and the connection guide. */
export function VpnPage() {
  const { data } = useApi(networkHelp, undefined)
  const [samples, setSamples] = useState<number[]>([])
  const [running, busyRun] = useBusy()

  const run = () =>
    busyRun(async () => {
      setSamples([])
      await measure((ms) => setSamples((list) => [...list, ms]))
    })

  // Measured once as soon as the thresholds are known, so the answer is there on arrival.
  const measuredOnce = useRef(false)
  const ready = data !== undefined
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once when the help arrives; run is re-created each render
  useEffect(() => {
    if (!ready || measuredOnce.current) return
    measuredOnce.current = true
    void run()
  }, [ready])

  const median = medianMs(samples)
  const quality = median !== null && data ? classifyRoundTrip(median, data.good_ms, data.fair_ms) : null

  return (
    <PageShell title="网络帮助">
      <div className="content">
        <section className="content__card" aria-label="网络测速">
          <h2 className="content__title">连接测速</h2>
          <p className="content__big" data-testid="round-trip">
            {median === null ? '—' : `${median} ms`}
            {quality ? (
              <span className={`content__quality--${quality}`}> {QUALITY_LABEL[quality]}</span>
            ) : null}
          </p>
          <p className="content__meta">
            {samples.length > 0
              ? `已测 ${samples.length}/${SAMPLES} 次：${samples.map((ms) => Math.round(ms)).join(' / ')} ms`
              : '测量到服务器的往返时间'}
          </p>
          {data ? (
            <p className="content__meta">
              ≤{data.good_ms} ms 良好 · ≤{data.fair_ms} ms 一般 · 更慢为较差，建议按下方指引切换网络或加速
            </p>
          ) : null}
          <Button color="primary" loading={running} disabled={!data} onClick={run}>
            {samples.length > 0 ? '重新测速' : '开始测速'}
          </Button>
        </section>
        <h2 className="content__title">连接指引</h2>
        <ArticleList articles={data?.list} />
      </div>
    </PageShell>
  )
}
