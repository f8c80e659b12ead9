#!/usr/bin/env bash
# Validates docker/kubernetes.yaml (or the files given) against the Kubernetes API schemas of the npm package
# kubernetes-models, without a cluster (kubectl's dry run needs an API server, kubeconform's schemas are not on a
# registry reachable here). Needs node and npm; installs the two pinned packages into app/target/kubernetes-validate.
#   bash docker/validate-kubernetes.sh [manifest.yaml ...]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=app/target/kubernetes-validate
mkdir -p "$dir"
cat >"$dir/package.json" <<'JSON'
{"private": true, "dependencies": {"kubernetes-models": "5.1.0", "yaml": "2.9.1"}}
JSON
if [[ ! -d "$dir/node_modules/kubernetes-models" || ! -d "$dir/node_modules/yaml" ]]; then
    (cd "$dir" && npm install --no-audit --no-fund --loglevel=error >/dev/null)
fi
cp docker/validate-kubernetes.mjs "$dir/"
status=0
for manifest in "${@:-docker/kubernetes.yaml}"; do
    node "$dir/validate-kubernetes.mjs" "$(realpath "$manifest")" || status=1
done
exit $status
