// A run's page (renderer/src/views/detail/): its summary, charts, ledger and exports.
import type { Locator } from 'playwright-core'
import { PageObject } from './page-object.ts'

export class RunDetailPage extends PageObject {
  get root(): Locator {
    return this.page.getByTestId('detail')
  }
  warning(i: number): Locator {
    return this.page.getByTestId(`detail-warnings-${i}`)
  }
}
