import type { TerraformResourceChange } from '@flagman/contract'

/** What two state texts differ in: resource instances by address, and root outputs. */
export interface StateDifferences {
  added: TerraformResourceChange[]
  changed: TerraformResourceChange[]
  removed: TerraformResourceChange[]
  outputs: string[]
}

interface Instance {
  address: string
  type: string
  attributes: Record<string, unknown>
}

interface ParsedState {
  instances: Map<string, Instance>
  outputs: Map<string, unknown>
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** `[0]` for a `count` instance, `["web"]` for a `for_each` one, nothing for a single one. */
function indexSuffix(key: unknown): string {
  if (typeof key === 'number') return `[${String(key)}]`
  if (typeof key === 'string') return `[${JSON.stringify(key)}]`
  return ''
}

/**
 * Terraform's address of a resource instance: `module.net.aws_subnet.private["a"]`,
 * `data.aws_ami.ubuntu`, `aws_instance.web[0]`.
 */
export function instanceAddress(
  resource: { mode?: unknown; type: string; name: string; module?: unknown },
  indexKey: unknown,
): string {
  const prefix = typeof resource.module === 'string' && resource.module ? `${resource.module}.` : ''
  const data = resource.mode === 'data' ? 'data.' : ''
  return `${prefix}${data}${resource.type}.${resource.name}${indexSuffix(indexKey)}`
}

/**
 * Reads the resources and outputs of a state text (format version 4, written by Terraform
 * 0.12 and later, and by OpenTofu). Whatever does not have that shape is left out rather than
 * refused: a stored version is shown as far as it can be, never failed on.
 */
export function parseState(text: string): ParsedState {
  const parsed: ParsedState = { instances: new Map(), outputs: new Map() }
  let state: unknown
  try {
    state = JSON.parse(text)
  } catch {
    return parsed
  }
  if (!isObject(state)) return parsed
  const resources = Array.isArray(state.resources) ? state.resources : []
  for (const resource of resources) {
    if (!isObject(resource)) continue
    const { type, name } = resource
    if (typeof type !== 'string' || typeof name !== 'string') continue
    const instances = Array.isArray(resource.instances) ? resource.instances : []
    for (const instance of instances) {
      if (!isObject(instance)) continue
      // A deposed object is the old half of a create-before-destroy replacement: it shares
      // the address of the current object, which is the one that describes the resource.
      if (instance.deposed !== undefined) continue
      const address = instanceAddress({ ...resource, type, name }, instance.index_key)
      const attributes = isObject(instance.attributes)
        ? instance.attributes
        : isObject(instance.attributes_flat)
          ? instance.attributes_flat
          : {}
      parsed.instances.set(address, { address, type, attributes })
    }
  }
  if (isObject(state.outputs)) {
    for (const [name, output] of Object.entries(state.outputs)) {
      parsed.outputs.set(name, isObject(output) ? output.value : undefined)
    }
  }
  return parsed
}

/** Deep equality of JSON values; the order of object keys does not matter. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
    return a.every((item, i) => sameValue(item, b[i]))
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a)
    if (keys.length !== Object.keys(b).length) return false
    return keys.every((key) => Object.hasOwn(b, key) && sameValue(a[key], b[key]))
  }
  return false
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** Top-level attribute names whose values differ, appeared or disappeared. */
function changedAttributes(from: Record<string, unknown>, to: Record<string, unknown>): string[] {
  const names = new Set([...Object.keys(from), ...Object.keys(to)])
  return [...names]
    .filter((name) => {
      const inFrom = Object.hasOwn(from, name)
      const inTo = Object.hasOwn(to, name)
      return inFrom !== inTo || !sameValue(from[name], to[name])
    })
    .sort(byText)
}

/**
 * Differences between two state texts, by resource address. Only attribute names are
 * listed, never values: a state holds secrets (sensitive values are stored in clear), and the
 * diff is for finding what moved, the versions themselves show the rest.
 */
export function diffStateTexts(fromText: string, toText: string): StateDifferences {
  const from = parseState(fromText)
  const to = parseState(toText)
  const added: TerraformResourceChange[] = []
  const changed: TerraformResourceChange[] = []
  const removed: TerraformResourceChange[] = []
  for (const [address, instance] of to.instances) {
    const before = from.instances.get(address)
    if (!before) {
      added.push({ address, type: instance.type, attributes: [] })
      continue
    }
    const attributes = changedAttributes(before.attributes, instance.attributes)
    if (attributes.length > 0) changed.push({ address, type: instance.type, attributes })
  }
  for (const [address, instance] of from.instances) {
    if (!to.instances.has(address)) removed.push({ address, type: instance.type, attributes: [] })
  }
  const names = new Set([...from.outputs.keys(), ...to.outputs.keys()])
  const outputs = [...names].filter(
    (name) =>
      from.outputs.has(name) !== to.outputs.has(name) ||
      !sameValue(from.outputs.get(name), to.outputs.get(name)),
  )
  const byAddress = (a: TerraformResourceChange, b: TerraformResourceChange) =>
    byText(a.address, b.address)
  return {
    added: added.sort(byAddress),
    changed: changed.sort(byAddress),
    removed: removed.sort(byAddress),
    outputs: outputs.sort(byText),
  }
}
