// The navigation bar: where a user goes from any screen.
import type { NavName } from '../../renderer/src/app/nav.ts'
import { PageObject } from './page-object.ts'

export class Nav extends PageObject {
  async go(to: NavName): Promise<void> {
    await this.page.getByTestId(`nav-${to}`).click()
  }
}
