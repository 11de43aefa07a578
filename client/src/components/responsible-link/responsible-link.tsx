import { paths } from '@client/config/paths'
import { Link } from 'react-router-dom'
import './responsible-link.css'

/** The "play responsibly" line every game page carries: age notice and a link to the page. */
export function ResponsibleLink() {
  return (
    <p className="responsible-link">
      <span className="responsible-link__age" aria-hidden="true">
        18+
      </span>
      理性游戏，量力而行。
      <Link to={paths.responsible}>负责任博彩</Link>
    </p>
  )
}
