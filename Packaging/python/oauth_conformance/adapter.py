"""`python -m oauth_conformance.adapter FILE [ARGS…]` runs an adapter the wheel ships
(`share/oauth-conformance/Adapters/python/FILE`, e.g. `authlib_adapter.py`) in this Python, the
one where the library under test is installed: a profile names it as its adapter's command.

The adapters import their helpers by plain name (`oauth_adapter`, `authlib_common`), so their
folder goes on `sys.path`, after everything else: a module the environment has comes first.
That matters for `independent_client`, which the wheel ships beside its adapter: a project that
installs its own checkout of that client is judged on its checkout, not on the shipped copy.
"""

import os
import runpy
import sys

from oauth_conformance import share_dir


def main():
    folder = os.path.join(share_dir(), "Adapters", "python")
    if len(sys.argv) < 2:
        shipped = sorted(name for name in os.listdir(folder) if name.endswith("_adapter.py") and name != "oauth_adapter.py")
        sys.exit(f"usage: python -m oauth_conformance.adapter FILE [ARGS…]; FILE is one of {', '.join(shipped)}")
    script = os.path.join(folder, sys.argv[1])
    if not os.path.isfile(script):
        sys.exit(f"oauth_conformance.adapter: no adapter {sys.argv[1]} in {folder}")
    sys.path.append(folder)
    sys.argv = [script, *sys.argv[2:]]
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
