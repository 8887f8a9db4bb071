#!/usr/bin/env bash
# Builds the DocC documentation of every public module from its catalog and its symbols, failing on any warning (a
# link that does not resolve, a symbol without its topic). The HTML goes to .build/docs/MODULE.
# Usage: Scripts/docs.sh   (SWIFT=... to use another toolchain)
set -euo pipefail
cd "$(dirname "$0")/.."

swift=${SWIFT:-swift}
docc="$(dirname "$(readlink -f "$(command -v "$swift")")")/docc"
[ -x "$docc" ] || { echo "docs: no docc beside $swift" >&2; exit 1; }
graphs=$("$swift" build --show-bin-path 2>/dev/null | tail -1)/../symbolgraph
rm -rf "$graphs" && mkdir -p .build
# The dump also tries the test modules, which fail to load before the tests are built; only the public modules'
# graphs matter here, and each is checked for below.
"$swift" package dump-symbol-graph --minimum-access-level public >.build/docs-dump.log 2>&1 || true
failures=0
for catalog in Sources/*/*.docc; do
    module=$(basename "$catalog" .docc)
    work=.build/docs-symbols/$module
    rm -rf "$work" ".build/docs/$module" && mkdir -p "$work" .build/docs
    if [ ! -f "$graphs/$module.symbols.json" ]; then
        echo "docs: no symbol graph for $module; the dump said:" >&2
        tail -20 .build/docs-dump.log | sed 's/^/    /' >&2
        exit 1
    fi
    cp "$graphs/$module.symbols.json" "$work/"
    cp "$graphs/$module"@*.symbols.json "$work/" 2>/dev/null || true
    if "$docc" convert "$catalog" --additional-symbol-graph-dir "$work" --output-path ".build/docs/$module" \
        --warnings-as-errors >".build/docs-symbols/$module.log" 2>&1; then
        echo "docs: $module"
    else
        failures=$((failures + 1))
        echo "docs: $module FAILED"
        grep -A3 "^error\|^warning" ".build/docs-symbols/$module.log" | head -40 | sed 's/^/    /'
    fi
done
[ "$failures" -eq 0 ] || { echo "docs: $failures module(s) have documentation errors"; exit 1; }
