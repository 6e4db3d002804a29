#!/usr/bin/env bash
# Checks the chart's Prometheus alert rules with promtool (scripts/go-tools.sh, pinned, built
# once): their syntax (`check rules`) and their unit tests (`test rules`, rules.test.yaml: each
# alert fires where it should and stays quiet where it should not). Run by `npm test`.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
promtool=$("$root/scripts/go-tools.sh" bin promtool)
cd "$root/deploy/helm/rental-applications/files/prometheus"
"$promtool" check rules rules.yaml
"$promtool" test rules rules.test.yaml
