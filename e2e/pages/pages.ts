// Page objects: what a test does, in the user's words, over data-testid locators; one file per
// screen (and per part several screens share: a report's export). Specs import them from here.
export { RunDetailPage } from './detail.ts'
export { HistoryPage } from './history.ts'
export { ImportCard } from './import-card.ts'
export { LivePage } from './live.ts'
export { Nav } from './nav.ts'
export { ReportExport } from './report.ts'
export { SettingsPage } from './settings.ts'
export { StudyPage } from './study.ts'
export { WizardPage } from './wizard.ts'
