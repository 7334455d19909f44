"""OAuthConformance for Python projects: the `conformance` binary and the suite it runs.

`pip install oauth-conformance` puts the statically linked `conformance` in the environment's
`bin/` (on PATH wherever the environment is) and the built-in suite, its schema, the adapters'
sources and the documentation in the environment's `share/oauth-conformance/`, where the binary
finds them: `conformance run` needs no path. Nothing here is needed to run the binary; this
package only finds it for Python code (`find_conformance_bin`, as ruff's `find_ruff_bin`),
runs it (`python -m oauth_conformance`) and runs the adapters the wheel ships
(`python -m oauth_conformance.adapter`).
"""

import os
import sysconfig

__all__ = ["find_conformance_bin", "share_dir"]


def find_conformance_bin():
    """The path of the `conformance` binary this package was installed with."""
    name = "conformance"
    # The scripts folder of the scheme the wheel went into: the environment's, or the user's
    # (pip install --user), whichever has it.
    candidates = [sysconfig.get_path("scripts")]
    user_scheme = sysconfig.get_preferred_scheme("user") if hasattr(sysconfig, "get_preferred_scheme") else "posix_user"
    candidates.append(sysconfig.get_path("scripts", scheme=user_scheme))
    for folder in candidates:
        path = os.path.join(folder, name)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    raise FileNotFoundError(f"{name} is not in {' or '.join(candidates)}: reinstall oauth-conformance")


def share_dir():
    """`PREFIX/share/oauth-conformance` beside `PREFIX/bin/conformance`: the suite (Scenarios/),
    Schemas/, Adapters/ and docs/, as the binary finds them."""
    binary = os.path.realpath(find_conformance_bin())
    return os.path.join(os.path.dirname(os.path.dirname(binary)), "share", "oauth-conformance")
