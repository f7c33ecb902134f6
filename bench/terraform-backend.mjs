// The Terraform state backend: full lock → get → post → unlock cycles per second with a small
// state (one client, then 8 clients on 8 workspaces), and the time to store and read back a
// 10 MB state. Prints figures; run after `npm run build`. FLAGMAN_DB picks the database.

import { randomBytes, randomUUID } from 'node:crypto'
import { median, startBench } from './task-common.mjs'

const CYCLES = Number(process.env.BENCH_CYCLES ?? 300)
const bench = await startBench({ 'noop.sh': 'true\n' })
const { api, project } = bench

async function workspace(n) {
  const inventory = await api('POST', `/api/project/${project.id}/inventory`, {
    name: `ws-${n}`,
    project_id: project.id,
    type: 'terraform-workspace',
    inventory: `ws-${n}`,
  })
  const password = randomBytes(12).toString('hex')
  const key = await api('POST', `/api/project/${project.id}/keys`, {
    name: `backend-${n}`,
    project_id: project.id,
    type: 'login_password',
    login_password: { login: 'bench', password },
  })
  const alias = await api(
    'POST',
    `/api/project/${project.id}/inventory/${inventory.id}/terraform/aliases`,
    { auth_key_id: key.id },
  )
  const url = alias.url.replace('//localhost:', '//127.0.0.1:')
  const authorization = `Basic ${Buffer.from(`bench:${password}`).toString('base64')}`
  const call = async (method, body, query = '') => {
    const res = await fetch(`${url}${query}`, {
      method,
      headers: { Authorization: authorization, 'Content-Type': 'application/json' },
      body,
    })
    const bytes = Buffer.from(await res.arrayBuffer())
    if (res.status >= 300 && !(method === 'GET' && res.status === 204)) {
      throw new Error(`${method}: ${res.status} ${bytes.toString().slice(0, 200)}`)
    }
    return bytes
  }
  return { call }
}

function state(serial) {
  return JSON.stringify({
    version: 4,
    serial,
    lineage: 'bench',
    resources: Array.from({ length: 20 }, (_, i) => ({
      mode: 'managed',
      type: 'null_resource',
      name: `r${i}`,
      instances: [{ attributes: { id: `${serial}-${i}` } }],
    })),
  })
}

async function cycles(ws, count) {
  const times = []
  for (let serial = 1; serial <= count; serial++) {
    const started = performance.now()
    const info = { ID: randomUUID(), Operation: 'OperationTypeApply', Who: 'bench' }
    await ws.call('LOCK', JSON.stringify(info))
    await ws.call('GET')
    await ws.call('POST', state(serial), `?ID=${info.ID}`)
    await ws.call('UNLOCK', JSON.stringify(info))
    times.push(performance.now() - started)
  }
  return times
}

try {
  const one = await workspace(0)
  let started = performance.now()
  const times = await cycles(one, CYCLES)
  let seconds = (performance.now() - started) / 1000
  console.log(
    `one client: ${(CYCLES / seconds).toFixed(0)} apply cycles/s (lock, get, post, unlock); ` +
      `median ${median(times).toFixed(1)} ms per cycle`,
  )

  const many = await Promise.all(Array.from({ length: 8 }, (_, i) => workspace(i + 1)))
  started = performance.now()
  await Promise.all(many.map((ws) => cycles(ws, CYCLES / 4)))
  seconds = (performance.now() - started) / 1000
  console.log(`8 clients, 8 workspaces: ${((8 * CYCLES) / 4 / seconds).toFixed(0)} cycles/s`)

  const big = await workspace(99)
  const text = JSON.stringify({
    version: 4,
    serial: 1,
    lineage: 'bench',
    resources: [],
    blob: randomBytes(7.5 * 1024 * 1024).toString('base64'),
  })
  started = performance.now()
  await big.call('POST', text)
  const stored = performance.now() - started
  started = performance.now()
  const back = await big.call('GET')
  const read = performance.now() - started
  if (back.length !== Buffer.byteLength(text)) throw new Error('the 10 MB state came back changed')
  console.log(
    `${(Buffer.byteLength(text) / 1024 / 1024).toFixed(1)} MB incompressible state: ` +
      `stored in ${stored.toFixed(0)} ms, read back in ${read.toFixed(0)} ms`,
  )
} finally {
  await bench.stop()
}
