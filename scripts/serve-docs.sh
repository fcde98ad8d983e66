#!/usr/bin/env bash
# Serves the documentation site scripts/build-docs.sh wrote, on 127.0.0.1 only, until Ctrl-C.
# `/` redirects to the IdentityFlow landing page.
#
#   scripts/serve-docs.sh            # http://127.0.0.1:8000/
#   scripts/serve-docs.sh 8123       # another port
#   DOCS_OUTPUT=dir scripts/serve-docs.sh
set -euo pipefail
cd "$(dirname "$0")/.."

port="${1:-8000}"
site="${DOCS_OUTPUT:-.build/docs}"
if [ ! -f "$site/index.html" ]; then echo "serve-docs: no site in $site; run scripts/build-docs.sh first" >&2; exit 1; fi
echo "serve-docs: http://127.0.0.1:$port/ (IdentityFlow: /documentation/identityflow/, the test kit: /documentation/identityflowtesting/)"
exec python3 -m http.server --bind 127.0.0.1 --directory "$site" "$port"
