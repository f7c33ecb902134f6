/**
 * The `terraform` block that points a configuration at an alias. The credentials are left out:
 * they belong to the alias key and are given as TF_HTTP_USERNAME and TF_HTTP_PASSWORD (or
 * `username`/`password`) by whoever runs Terraform.
 */
export function backendConfig(url: string): string {
  const address = JSON.stringify(url)
  return [
    'terraform {',
    '  backend "http" {',
    `    address        = ${address}`,
    `    lock_address   = ${address}`,
    `    unlock_address = ${address}`,
    '    lock_method    = "LOCK"',
    '    unlock_method  = "UNLOCK"',
    '  }',
    '}',
    '',
  ].join('\n')
}

/** State text indented for reading; text that is not JSON is shown as it is. */
export function prettyState(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    return text
  }
}

/** Terraform lineages are UUIDs; the first block tells versions of one state apart. */
export function shortLineage(lineage: string): string {
  return lineage.length > 8 ? `${lineage.slice(0, 8)}…` : lineage
}
