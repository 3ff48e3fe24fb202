# Sourced by the provisioning scripts: the two steps every cached Debian root shares.

# Writes an executable wrapper $1 that runs the binary $3 of the root $2 through that
# root's own dynamic loader (no chroot, nothing installed into the system).
write_root_wrapper() {
  cat >"$1" <<WRAP
#!/usr/bin/env bash
# Runs Debian's $3 from the cached root through that root's loader.
L="$2/usr/lib/x86_64-linux-gnu"
exec "$2/lib64/ld-linux-x86-64.so.2" --library-path "\$L:$2/lib/x86_64-linux-gnu:\$L/pulseaudio" "$2/$3" "\$@"
WRAP
  chmod +x "$1"
}

# Installs mmdebstrap on this machine if it is missing.
ensure_mmdebstrap() {
  if ! command -v mmdebstrap >/dev/null 2>&1; then
    apt-get update -o Acquire::Check-Valid-Until=false >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y mmdebstrap >&2
  fi
}
