// csaf-schemas.mjs DIR: writes the CSAF 2.0 JSON schema and the FIRST
// CVSS schemas it refers to, as @secvisogram/csaf-validator-lib publishes
// them, to DIR/csaf_json_schema.json and DIR/first/cvss-v*.json, for
// tests/lib/validate.py (python3-jsonschema) to read offline.  The
// library is found as csaf-validate.mjs finds it ($SECTEAM_NPM, else the
// cache).  Exits 2, naming the file, when the library lacks one.
import { mkdirSync, writeFileSync, renameSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const dir = process.argv[2]
if (!dir) {
  console.error('usage: csaf-schemas.mjs DIR')
  process.exit(2)
}
const cache =
  process.env.SECTEAM_CACHE ??
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'secteam-tui')
const npm = process.env.SECTEAM_NPM ?? join(cache, 'npm')
const lib = join(npm, 'node_modules', '@secvisogram', 'csaf-validator-lib')

const files = [
  ['lib/schemaTests/csaf_2_0/schema.js', 'csaf_json_schema.json'],
  ['schemas/cvss-v2.0.js', 'first/cvss-v2.0.json'],
  ['schemas/cvss-v3.0.js', 'first/cvss-v3.0.json'],
  ['schemas/cvss-v3.1.js', 'first/cvss-v3.1.json'],
]
mkdirSync(join(dir, 'first'), { recursive: true })
for (const [from, to] of files) {
  let schema
  try {
    schema = (await import(pathToFileURL(join(lib, from)).href)).default
  } catch (e) {
    console.error(`csaf-schemas: cannot load ${join(lib, from)}: ${e.message}`)
    process.exit(2)
  }
  const out = join(dir, to)
  writeFileSync(out + '.tmp', JSON.stringify(schema, null, 2) + '\n')
  renameSync(out + '.tmp', out)
}
