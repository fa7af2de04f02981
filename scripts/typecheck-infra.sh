#!/usr/bin/env bash
# Type-checks sst.config.ts and infra/ against SST's platform types, offline: `sst install`
# fetches the providers' packages from the npm registry only (no cloud account, no deploy).
set -euo pipefail
export SST_SKIP_DEPENDENCY_CHECK=true SST_NO_BUN=1 SST_TELEMETRY_DISABLED=1 SST_STAGE="${SST_STAGE:-ci}"
if [ ! -f .sst/platform/config.d.ts ]; then
  npx sst install >/dev/null
fi
npx tsc -p infra/tsconfig.json
