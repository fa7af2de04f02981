#!/usr/bin/env bash
# Installs the Debian packages the project needs when they are missing:
#   - Java 17+ for DynamoDB Local (npm start, integration tests)
#   - Chromium for browser tests, when NEED_CHROMIUM=1 (console, capture page, web SDK)
#   - the OCR-B font, which tests and the synthetic benchmarks draw MRZs with (fonts-ocr-b)
# Runs before `npm start` and `npm test`; does nothing when everything is present.
set -euo pipefail

need=()
if ! command -v java >/dev/null 2>&1; then need+=(openjdk-17-jre-headless); fi
if [ "${NEED_CHROMIUM:-0}" = "1" ] && ! [ -x /usr/bin/chromium ]; then need+=(chromium); fi
if ! [ -f /usr/share/fonts/opentype/ocr-b/OCRB.otf ]; then need+=(fonts-ocr-b); fi
[ ${#need[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != "0" ] && ! command -v sudo >/dev/null 2>&1; then
  echo "Missing Debian packages: ${need[*]}. Install them with: apt-get install -y ${need[*]}" >&2
  exit 1
fi
SUDO=""; [ "$(id -u)" != "0" ] && SUDO=sudo
echo "Installing Debian packages: ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
