#!/bin/sh
# Installs every Debian package sanvp needs. Idempotent: packages already present are skipped.
set -eu
PKGS="build-essential cmake ninja-build pkg-config libsystemc-dev verilator libfmt-dev catch2 \
libyaml-cpp-dev nlohmann-json3-dev libcli11-dev clang lld llvm libclang-rt-14-dev gtkwave xvfb xauth python3-matplotlib graphviz \
slurmctld slurmd slurm-client munge"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "setup: installing:$missing"
  log=$(mktemp /tmp/sanvp-setup.XXXXXX.log)
  if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing; } > "$log" 2>&1; then
    tail -20 "$log"; echo "setup: apt-get failed (full log: $log)"; exit 1
  fi
  echo "setup: done (log: $log)"
else
  echo "setup: all packages present"
fi
