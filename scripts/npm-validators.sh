#!/bin/sh
# npm-validators.sh [--quiet]: installs the npm packages the tests read
# our records back with, when missing, into the cache (never into the
# repository): ${SECTEAM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/secteam-tui}/npm
# (SECTEAM_NPM overrides the whole path).  Versions are pinned here.
#   @secvisogram/csaf-validator-lib  the CSAF community's validator
#       (BSI, MIT licence): tests/lib/csaf-validate.mjs runs its
#       mandatory and recommended tests on every CSAF advisory we write;
#       its CSAF 2.0 and FIRST CVSS schemas are written out as JSON to
#       $dir/schemas (tests/lib/csaf-schemas.mjs) for python3-jsonschema.
# Needs node and npm (scripts/deps.sh check installs them) and the npm
# registry; exits 1, saying what is missing, when it cannot install.
set -u
quiet=""
[ "${1:-}" = "--quiet" ] && quiet=1
CSAF_VALIDATOR_VERSION=2.0.10
cache=${SECTEAM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/secteam-tui}
dir=${SECTEAM_NPM:-$cache/npm}
pkg=$dir/node_modules/@secvisogram/csaf-validator-lib/package.json

have=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$pkg" 2>/dev/null | head -n 1)
top=$(cd "$(dirname "$0")/.." && pwd)
# The schemas as JSON, from the package installed (again after an install).
schemas() {
	[ -f "$dir/schemas/first/cvss-v3.1.json" ] && [ -z "${1:-}" ] && return 0
	SECTEAM_NPM=$dir node "$top/tests/lib/csaf-schemas.mjs" "$dir/schemas" ||
		{ echo "npm-validators: cannot write the CSAF schemas to $dir/schemas" >&2; exit 1; }
}
if [ "$have" = "$CSAF_VALIDATOR_VERSION" ]; then
	schemas
	[ -n "$quiet" ] || echo "npm-validators: @secvisogram/csaf-validator-lib $have present in $dir"
	exit 0
fi
for t in node npm; do
	command -v $t >/dev/null 2>&1 ||
		{ echo "npm-validators: '$t' is missing (scripts/deps.sh check installs nodejs and npm)" >&2; exit 1; }
done
mkdir -p "$dir" || { echo "npm-validators: cannot create $dir" >&2; exit 1; }
echo "npm-validators: installing @secvisogram/csaf-validator-lib@$CSAF_VALIDATOR_VERSION into $dir" >&2
# --ignore-scripts: nothing the package names runs at install time.
if ! npm install --prefix "$dir" --no-audit --no-fund --ignore-scripts --no-save \
	"@secvisogram/csaf-validator-lib@$CSAF_VALIDATOR_VERSION" >&2; then
	echo "npm-validators: npm install @secvisogram/csaf-validator-lib@$CSAF_VALIDATOR_VERSION failed" >&2
	exit 1
fi
schemas again
