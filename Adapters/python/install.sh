#!/usr/bin/env bash
# Installs the pinned client libraries from PyPI into the venvs the profiles in this folder run:
# Adapters/python/.venv (requirements.txt) and Adapters/python/.venv-mcp (mcp-requirements.txt: the
# MCP Python SDK, apart because it brings httpx2, which authlib would pick up instead of httpx).
# Run it once (scripts/test does); it does nothing when they are in place.
set -euo pipefail
cd "$(dirname "$0")"

# install VENV REQUIREMENTS: (re)makes VENV unless every pin of REQUIREMENTS is installed in it.
install() {
  local venv=$1 requirements=$2
  if [ -x "$venv/bin/python" ] && "$venv/bin/python" - "$requirements" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
pins = [line.split("#")[0].strip().split("==") for line in open(sys.argv[1]) if "==" in line.split("#")[0]]
sys.exit(0 if all(version(name) == pinned for name, pinned in pins) else 1)
PY
  then
    return 0
  fi
  echo "Adapters/python/install.sh: installing the pinned client libraries of $requirements (PyPI) into Adapters/python/$venv"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
}

install .venv requirements.txt
install .venv-mcp mcp-requirements.txt
