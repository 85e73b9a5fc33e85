#!/usr/bin/env bash
# Make .venv-pooltool (the project root): pooltool-billiards 0.6.0 for the independent
# shot set (bench/pooltool/generate.py). Its releases from 0.4 pin a development build
# of panda3d that the package registry lacks, so it goes in with --no-deps and its
# other requirements come pinned from requirements.txt (panda3d 1.10.16 from the
# registry works headless for simulation). The project's own venv is not touched.
#
#   bash bench/pooltool/setup.sh            # then:
#   .venv-pooltool/bin/python bench/pooltool/generate.py
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="$root/.venv-pooltool"
python="${PYTHON:-python3}"
"$python" -m venv "$venv"
"$venv/bin/pip" install --quiet --upgrade pip
"$venv/bin/pip" install --quiet --no-deps pooltool-billiards==0.6.0
"$venv/bin/pip" install --quiet -r "$here/requirements.txt"
"$venv/bin/python" -c "import pooltool; print('pooltool', pooltool.__version__, 'in', '$venv')"
