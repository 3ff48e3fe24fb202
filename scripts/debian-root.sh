# Sourced by the provisioning scripts: the steps every cached Debian root shares.

# Prints the Debian archive this machine's apt is configured with (the first `deb` URI of
# a `Types: deb` entry in /etc/apt/sources.list.d/*.sources or a `deb` line of
# /etc/apt/sources.list that serves a Debian release, not its security archive): roots are
# made from the same mirror the machine uses. Fails when there is none.
debian_mirror() {
  local uri
  uri=$(
    {
      for f in /etc/apt/sources.list.d/*.sources; do
        [ -r "$f" ] || continue
        # One stanza per paragraph: its Types, URIs and Suites.
        awk 'BEGIN { RS = ""; FS = "\n" }
          {
            types = ""; uris = ""; suites = ""
            for (i = 1; i <= NF; i++) {
              if ($i ~ /^Types:/) types = $i
              else if ($i ~ /^URIs:/) uris = $i
              else if ($i ~ /^Suites:/) suites = $i
            }
            if (types ~ /(^|[ \t])deb([ \t]|$)/ && suites !~ /-security/ && uris != "") {
              sub(/^URIs:[ \t]*/, "", uris); split(uris, u, /[ \t]+/); print u[1]
            }
          }' "$f"
      done
      [ -r /etc/apt/sources.list ] &&
        awk '$1 == "deb" && $0 !~ /-security/ {
          for (i = 2; i <= NF; i++) if ($i !~ /^\[/ && $i !~ /\]$/) { print $i; break }
        }' /etc/apt/sources.list
    } | grep -E '^https?://' | grep -vi 'security' | grep -i 'debian' | head -n 1
  )
  [ -n "$uri" ] || { echo "no Debian archive in this machine's apt configuration" >&2; return 1; }
  echo "${uri%/}"
}

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
