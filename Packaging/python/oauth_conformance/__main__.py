"""`python -m oauth_conformance ARGS…` is `conformance ARGS…`, for a PATH without the
environment's bin/ (the convention of ruff and uv)."""

import os
import sys

from oauth_conformance import find_conformance_bin


def main():
    binary = find_conformance_bin()
    os.execv(binary, [binary, *sys.argv[1:]])


if __name__ == "__main__":
    main()
