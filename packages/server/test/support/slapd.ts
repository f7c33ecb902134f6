import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Attribute, Change, Client } from 'ldapts'

/*
 * A real LDAP directory for tests: Debian's OpenLDAP server (`slapd`), started as a child
 * process on 127.0.0.1 with a throw-away configuration, database and certificate authority
 * in a temporary folder. It serves ldap:// (with StartTLS) and ldaps://.
 */

const SLAPD = '/usr/sbin/slapd'
const SLAPADD = '/usr/sbin/slapadd'
const MODULES = '/usr/lib/ldap'
const SCHEMAS = '/etc/ldap/schema'

export const LDAP_BASE = 'dc=flagman,dc=test'
const ROOT_DN = `cn=admin,${LDAP_BASE}`
const ROOT_PASSWORD = 'root-secret'

export interface DirectoryUser {
  uid: string
  password: string
  /** Omitted: the entry has no mail attribute. */
  mail?: string
  cn?: string
}

export interface DirectoryGroup {
  cn: string
  /** groupOfNames lists `member`s, groupOfUniqueNames `uniqueMember`s. */
  kind: 'names' | 'uniqueNames'
  members: string[]
}

export interface DirectoryContent {
  users: DirectoryUser[]
  groups: DirectoryGroup[]
}

export interface Slapd {
  /** ldap://127.0.0.1:<port> (StartTLS offered). */
  url: string
  /** ldaps://127.0.0.1:<port>. */
  ldapsUrl: string
  /** PEM file of the certificate authority that signed the server's certificate. */
  caFile: string
  /** Another authority's certificate: one the server's certificate does not chain to. */
  otherCaFile: string
  baseDn: string
  peopleDn: string
  /** The service account the Flagman server binds as to search. */
  bindDn: string
  bindPassword: string
  userDn(uid: string): string
  groupDn(cn: string): string
  addMember(group: string, uid: string): Promise<void>
  removeMember(group: string, uid: string): Promise<void>
  setPassword(uid: string, password: string): Promise<void>
  stop(): Promise<void>
}

/** Whether the test machine has slapd (scripts/ensure-system.sh installs it). */
export function slapdAvailable(): boolean {
  return existsSync(SLAPD) && existsSync(SLAPADD)
}

/** `{SSHA}` hash of a password, as slappasswd makes it. */
function ssha(password: string): string {
  const salt = randomBytes(8)
  const digest = createHash('sha1').update(password).update(salt).digest()
  return `{SSHA}${Buffer.concat([digest, salt]).toString('base64')}`
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' })
}

/** A certificate authority and a server certificate for 127.0.0.1 signed by it. */
function makeCertificates(dir: string): void {
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
  for (const name of ['ca', 'other-ca']) {
    openssl(dir, [
      'req',
      '-x509',
      ...ec,
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.pem`,
      '-days',
      '2',
      '-subj',
      `/CN=Flagman test ${name}`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ])
  }
  openssl(dir, [
    'req',
    ...ec,
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
    '-subj',
    '/CN=127.0.0.1',
  ])
  writeFileSync(
    join(dir, 'server.ext'),
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n',
  )
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '2',
    '-extfile',
    'server.ext',
  ])
}

function slapdConf(dir: string): string {
  return [
    `include ${SCHEMAS}/core.schema`,
    `include ${SCHEMAS}/cosine.schema`,
    `include ${SCHEMAS}/inetorgperson.schema`,
    `include ${SCHEMAS}/nis.schema`,
    `modulepath ${MODULES}`,
    'moduleload back_mdb',
    `pidfile ${join(dir, 'slapd.pid')}`,
    `argsfile ${join(dir, 'slapd.args')}`,
    `TLSCACertificateFile ${join(dir, 'ca.pem')}`,
    `TLSCertificateFile ${join(dir, 'server.pem')}`,
    `TLSCertificateKeyFile ${join(dir, 'server.key')}`,
    'database mdb',
    'maxsize 16777216',
    `suffix "${LDAP_BASE}"`,
    `rootdn "${ROOT_DN}"`,
    `rootpw ${ssha(ROOT_PASSWORD)}`,
    `directory ${join(dir, 'db')}`,
    // Passwords are only for binding; everything else only for signed-in readers.
    'access to attrs=userPassword by self write by anonymous auth by * none',
    'access to * by users read by * none',
    '',
  ].join('\n')
}

function entry(lines: Array<[string, string]>): string {
  return lines.map(([name, value]) => `${name}: ${value}`).join('\n')
}

function ldif(content: DirectoryContent, bindDn: string, bindPassword: string): string {
  const people = `ou=people,${LDAP_BASE}`
  const groups = `ou=groups,${LDAP_BASE}`
  const entries = [
    entry([
      ['dn', LDAP_BASE],
      ['objectClass', 'dcObject'],
      ['objectClass', 'organization'],
      ['dc', 'flagman'],
      ['o', 'Flagman test'],
    ]),
    entry([
      ['dn', people],
      ['objectClass', 'organizationalUnit'],
      ['ou', 'people'],
    ]),
    entry([
      ['dn', groups],
      ['objectClass', 'organizationalUnit'],
      ['ou', 'groups'],
    ]),
    entry([
      ['dn', bindDn],
      ['objectClass', 'organizationalRole'],
      ['objectClass', 'simpleSecurityObject'],
      ['cn', 'reader'],
      ['userPassword', ssha(bindPassword)],
    ]),
  ]
  for (const user of content.users) {
    const name = user.cn ?? user.uid
    const lines: Array<[string, string]> = [
      ['dn', `uid=${user.uid},${people}`],
      ['objectClass', 'inetOrgPerson'],
      ['uid', user.uid],
      ['cn', name],
      ['sn', name.split(' ').at(-1) ?? name],
      ['userPassword', ssha(user.password)],
    ]
    if (user.mail) lines.push(['mail', user.mail])
    entries.push(entry(lines))
  }
  for (const group of content.groups) {
    const attribute = group.kind === 'names' ? 'member' : 'uniqueMember'
    // Both classes need at least one member: the service account stands in.
    const members = [bindDn, ...group.members.map((uid) => `uid=${uid},${people}`)]
    entries.push(
      entry([
        ['dn', `cn=${group.cn},${groups}`],
        ['objectClass', group.kind === 'names' ? 'groupOfNames' : 'groupOfUniqueNames'],
        ['cn', group.cn],
        ...members.map((dn): [string, string] => [attribute, dn]),
      ]),
    )
  }
  return `${entries.join('\n\n')}\n`
}

async function waitUntilServing(url: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 20_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`slapd exited:\n${output()}`)
    const client = new Client({ url, connectTimeout: 1000, timeout: 2000 })
    try {
      await client.bind(ROOT_DN, ROOT_PASSWORD)
      await client.unbind()
      return
    } catch (error) {
      await client.unbind().catch(() => {})
      if (Date.now() > deadline) {
        throw new Error(`slapd did not start: ${String(error)}\n${output()}`, { cause: error })
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

/** Starts slapd with the given users and groups; `stop()` ends it and removes its folder. */
export async function startSlapd(content: DirectoryContent): Promise<Slapd> {
  const dir = mkdtempSync(join(tmpdir(), 'flagman-slapd-'))
  mkdirSync(join(dir, 'db'))
  makeCertificates(dir)
  const conf = join(dir, 'slapd.conf')
  writeFileSync(conf, slapdConf(dir))
  const bindDn = `cn=reader,${LDAP_BASE}`
  const bindPassword = `bind-${randomBytes(6).toString('hex')}`
  const data = join(dir, 'data.ldif')
  writeFileSync(data, ldif(content, bindDn, bindPassword))
  execFileSync(SLAPADD, ['-f', conf, '-l', data], { stdio: 'pipe' })

  const [port, tlsPort] = [await freePort(), await freePort()]
  const url = `ldap://127.0.0.1:${port}`
  const ldapsUrl = `ldaps://127.0.0.1:${tlsPort}`
  let log = ''
  // `-d 0`: stay in the foreground, so the process is ours to stop.
  const child = spawn(SLAPD, ['-f', conf, '-h', `${url}/ ${ldapsUrl}/`, '-d', '0'], {
    stdio: 'pipe',
  })
  child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  try {
    await waitUntilServing(url, child, () => log)
  } catch (error) {
    child.kill('SIGKILL')
    await exited
    rmSync(dir, { recursive: true, force: true })
    throw error
  }

  const people = `ou=people,${LDAP_BASE}`
  const groupKinds = new Map(content.groups.map((g) => [g.cn, g.kind]))
  const userDn = (uid: string) => `uid=${uid},${people}`
  const groupDn = (cn: string) => `cn=${cn},ou=groups,${LDAP_BASE}`

  async function asRoot(work: (client: Client) => Promise<void>): Promise<void> {
    const client = new Client({ url, timeout: 5000 })
    try {
      await client.bind(ROOT_DN, ROOT_PASSWORD)
      await work(client)
    } finally {
      await client.unbind().catch(() => {})
    }
  }

  async function changeMember(operation: 'add' | 'delete', group: string, uid: string) {
    const type = groupKinds.get(group) === 'uniqueNames' ? 'uniqueMember' : 'member'
    await asRoot((client) =>
      client.modify(
        groupDn(group),
        new Change({ operation, modification: new Attribute({ type, values: [userDn(uid)] }) }),
      ),
    )
  }

  return {
    url,
    ldapsUrl,
    caFile: join(dir, 'ca.pem'),
    otherCaFile: join(dir, 'other-ca.pem'),
    baseDn: LDAP_BASE,
    peopleDn: people,
    bindDn,
    bindPassword,
    userDn,
    groupDn,
    addMember: (group, uid) => changeMember('add', group, uid),
    removeMember: (group, uid) => changeMember('delete', group, uid),
    setPassword: (uid, password) =>
      asRoot((client) =>
        client.modify(
          userDn(uid),
          new Change({
            operation: 'replace',
            modification: new Attribute({ type: 'userPassword', values: [ssha(password)] }),
          }),
        ),
      ),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
