import 'i18next'
import type activity from './locales/en/activity.json'
import type apps from './locales/en/apps.json'
import type auth from './locales/en/auth.json'
import type common from './locales/en/common.json'
import type environments from './locales/en/environments.json'
import type install from './locales/en/install.json'
import type integrations from './locales/en/integrations.json'
import type inventories from './locales/en/inventories.json'
import type keys from './locales/en/keys.json'
import type news from './locales/en/news.json'
import type projects from './locales/en/projects.json'
import type references from './locales/en/references.json'
import type repositories from './locales/en/repositories.json'
import type runners from './locales/en/runners.json'
import type schedules from './locales/en/schedules.json'
import type shell from './locales/en/shell.json'
import type subscription from './locales/en/subscription.json'
import type team from './locales/en/team.json'
import type tasks from './locales/en/tasks.json'
import type templates from './locales/en/templates.json'
import type users from './locales/en/users.json'

// Keys are typed from the English files, so a missing or misspelt key fails the typecheck.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common'
    resources: {
      common: typeof common
      auth: typeof auth
      shell: typeof shell
      projects: typeof projects
      users: typeof users
      team: typeof team
      keys: typeof keys
      repositories: typeof repositories
      inventories: typeof inventories
      environments: typeof environments
      activity: typeof activity
      references: typeof references
      templates: typeof templates
      apps: typeof apps
      tasks: typeof tasks
      schedules: typeof schedules
      integrations: typeof integrations
      runners: typeof runners
      subscription: typeof subscription
      install: typeof install
      news: typeof news
    }
  }
}
