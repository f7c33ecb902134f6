export {
  assertUnused,
  findEnvironmentRefs,
  findInventoryRefs,
  findKeyRefs,
  findRepositoryRefs,
} from './references.repository.js'
