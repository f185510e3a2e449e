# gitrepo.sh: a small kernel-like git tree for the fix and CVE tests
# (sourced).  gitrepo_make DIR builds, with fixed names and dates (so the
# SHAs are always the same):
#   master:       initial - "net: add the frobnicator" (tag v1.0)
#                 - "mm: unrelated" - the fix (tag v1.1-rc1) - "more work"
#                 (tag v1.1)
#   linux-1.0.y:  from v1.0: "stable: unrelated" - the backport carrying
#                 "commit <fix> upstream." (tag v1.0.1)
# Its HOME is DIR.home, so no user or system git config applies.
gitrepo_make() {
	(
	set -e
	export GIT_AUTHOR_NAME=Dev GIT_AUTHOR_EMAIL=dev@example.org \
		GIT_COMMITTER_NAME=Dev GIT_COMMITTER_EMAIL=dev@example.org \
		GIT_CONFIG_NOSYSTEM=1 HOME=$1.home
	mkdir -p "$1" "$1.home"; cd "$1"
	c() { GIT_AUTHOR_DATE="$1 +0000" GIT_COMMITTER_DATE="$1 +0000" git commit -q --allow-empty -m "$2"; }
	git init -q -b master .
	c "2026-01-01T00:00:00" "initial"
	c "2026-01-02T00:00:00" "net: add the frobnicator"
	git tag v1.0
	git checkout -q -b linux-1.0.y
	c "2026-01-03T00:00:00" "stable: unrelated"
	git checkout -q master
	c "2026-01-04T00:00:00" "mm: unrelated"
	c "2026-01-05T00:00:00" "net: fix the frobnicator overflow"
	fix=$(git rev-parse HEAD)
	git tag v1.1-rc1
	c "2026-01-06T00:00:00" "more work"
	git tag v1.1
	git checkout -q linux-1.0.y
	GIT_AUTHOR_DATE="2026-01-07T00:00:00 +0000" GIT_COMMITTER_DATE="2026-01-07T00:00:00 +0000" \
		git commit -q --allow-empty -m "net: fix the frobnicator overflow" -m "commit $fix upstream."
	git tag v1.0.1
	git checkout -q master
	)
}
