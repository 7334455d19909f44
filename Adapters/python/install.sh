#!/usr/bin/env bash
# Installs the pinned client libraries from PyPI into Adapters/python/.venv, which the profiles
# in this folder run. Run it once (scripts/test does); it does nothing when they are in place.
set -euo pipefail
cd "$(dirname "$0")"

if [ -x .venv/bin/python ] && .venv/bin/python - <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
pins = [line.split("==") for line in open("requirements.txt") if "==" in line]
sys.exit(0 if all(version(name) == pinned.strip() for name, pinned in pins) else 1)
PY
then
  exit 0
fi

echo "Adapters/python/install.sh: installing the pinned client libraries (PyPI) into Adapters/python/.venv"
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
