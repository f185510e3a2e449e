// csaf-validate.mjs [--allow TEST]... FILE...: runs the CSAF 2.0 tests of
// @secvisogram/csaf-validator-lib on each CSAF document FILE (an array of
// documents is checked one by one): the strict schema test, every
// mandatory test (6.1.x) and every recommended ("optional") test (6.2.x).
// The informative tests (6.3.x) are left out: some ask the network.
// The library is read from the cache scripts/npm-validators.sh installs
// it into ($SECTEAM_NPM, else ${SECTEAM_CACHE:-${XDG_CACHE_HOME:-
// $HOME/.cache}/secteam-tui}/npm).
// Prints one line per finding, "FILE[#N]: mandatory|recommended TEST
// PATH: MESSAGE", then "csaf-validate: N mandatory errors, N
// recommended warnings (N allowed)".  Exits 1 on any mandatory error and
// on any recommended warning whose test --allow does not name (a test
// the data cannot satisfy, e.g. 6.2.3 without a CVSS score); 2 when the
// library or a file cannot be read.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const home = process.env.HOME ?? ''
const cache =
  process.env.SECTEAM_CACHE ??
  join(process.env.XDG_CACHE_HOME ?? join(home, '.cache'), 'secteam-tui')
const npm = process.env.SECTEAM_NPM ?? join(cache, 'npm')
const lib = join(npm, 'node_modules', '@secvisogram', 'csaf-validator-lib')

const allow = new Set()
const files = []
const argv = process.argv.slice(2)
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--allow' && i + 1 < argv.length) allow.add(argv[++i])
  else files.push(argv[i])
}
if (!files.length) {
  console.error('usage: csaf-validate.mjs [--allow 6.2.N]... FILE...')
  process.exit(2)
}

let validate, schema, mandatory, optional
try {
  const load = (f) => import(pathToFileURL(join(lib, f)).href)
  validate = (await load('validateStrict.js')).default
  schema = await load('schemaTests.js')
  mandatory = await load('mandatoryTests.js')
  optional = await load('optionalTests.js')
} catch (e) {
  console.error(
    `csaf-validate: cannot load @secvisogram/csaf-validator-lib from ${lib} ` +
      `(scripts/npm-validators.sh installs it): ${e.message}`
  )
  process.exit(2)
}

const id = (name) => name.replace(/^[a-zA-Z]+_/, '').replaceAll('_', '.')
const kind = (name) =>
  name.startsWith('mandatory')
    ? 'mandatory'
    : name.startsWith('optional')
      ? 'recommended'
      : 'schema'
const tests = [
  schema.csaf_2_0_strict,
  ...Object.values(mandatory),
  ...Object.values(optional),
]

let errors = 0,
  warnings = 0,
  allowed = 0
for (const file of files) {
  let docs
  try {
    docs = JSON.parse(readFileSync(file, 'utf8'))
  } catch (e) {
    console.error(`csaf-validate: cannot read ${file}: ${e.message}`)
    process.exit(2)
  }
  const many = Array.isArray(docs)
  if (!many) docs = [docs]
  for (let n = 0; n < docs.length; n++) {
    const where = many ? `${file}#${n}` : file
    const r = await validate(tests, docs[n])
    for (const t of r.tests) {
      const k = kind(t.name)
      for (const e of t.errors) {
        errors++
        console.log(`${where}: ${k} ${id(t.name)} ${e.instancePath || '/'}: ${e.message}`)
      }
      for (const w of t.warnings) {
        const ok = allow.has(id(t.name))
        if (ok) allowed++
        else warnings++
        console.log(
          `${where}: ${k} ${id(t.name)} ${w.instancePath || '/'}: ${w.message}${ok ? ' (allowed)' : ''}`
        )
      }
    }
  }
}
console.log(
  `csaf-validate: ${errors} mandatory errors, ${warnings + allowed} recommended warnings (${allowed} allowed)`
)
process.exit(errors || warnings ? 1 : 0)
